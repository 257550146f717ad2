/** The Server-Sent Events reader the control client and the QA console share. */
import { describe, expect, it } from 'vitest';
import { formatEvent } from '../../../src/control/event-stream.js';
import { createEventParser, type ServerSentEvent } from '../../../src/control/sse.js';

const parse = (chunks: string[]): ServerSentEvent[] => {
  const events: ServerSentEvent[] = [];
  const feed = createEventParser((e) => events.push(e));
  for (const chunk of chunks) feed(chunk);
  return events;
};

describe('the event stream reader', () => {
  it('reads what the server writes, back to the same data', () => {
    const data = { name: '<img src=x onerror=alert(1)>', lines: 'a\nb' };
    const text = ': keep-alive\n\n' + formatEvent({ event: 'entry', data }) + formatEvent({ event: 'entry', data: 2 });
    expect(parse([text]).map((e) => [e.event, JSON.parse(e.data)])).toEqual([
      ['entry', data],
      ['entry', 2],
    ]);
  });

  it('joins events cut anywhere by the network, one character at a time', () => {
    const text = 'event: entry\r\ndata: {"a":1}\r\n\r\ndata: x\ndata: y\n\n';
    expect(parse([...text])).toEqual([
      { event: 'entry', data: '{"a":1}' },
      { event: 'message', data: 'x\ny' },
    ]);
  });

  it("carries an entry's id, written before its data, and only on the event that had one", () => {
    const text = formatEvent({ event: 'open', data: {} }) + formatEvent({ event: 'entry', id: 1795000000000042, data: 1 }) + 'data: 2\n\n';
    expect(text).toContain('id: 1795000000000042\nevent: entry\n');
    expect(parse([...text])).toEqual([
      { event: 'open', data: '{}' },
      { event: 'entry', data: '1', id: '1795000000000042' },
      { event: 'message', data: '2' },
    ]);
  });

  it('drops comments, unknown fields and an event not yet ended', () => {
    expect(parse([': hi\n\nid: 3\nretry: 5\n\nevent: entry\ndata: 1'])).toEqual([]);
  });
});
