/**
 * Resuming a journal stream, both ends without a server: the handler's seam
 * (followed first, read after, what the read had dropped from the live
 * entries held meanwhile) and the client's loop (`resumingEvents`).
 */
import { describe, expect, it } from 'vitest';
import { eventStreamText } from '../../../src/control/event-stream.js';
import type { ControlContext } from '../../../src/control/handler-types.js';
import { journalHandlers } from '../../../src/control/journal-handlers.js';
import { ControlError } from '../../../src/control/client.js';
import { resumingEvents } from '../../../src/control/resume.js';
import type { ServerSentEvent } from '../../../src/control/sse.js';
import type { JournalStore } from '../../../src/store/backend.js';
import type { JournalEntry, JournalListener } from '../../../src/store/journal/types.js';

const entry = (n: number): JournalEntry => ({
  time: new Date(0).toISOString(),
  method: 'GET',
  path: '/v1/pets',
  query: { n: String(n) },
  operationId: 'listPets',
  status: 200,
  durationMs: 1,
  requestBody: null,
  responseBody: null,
  specValid: true,
});

/** A journal of entries 1 to `kept` whose read takes a while, during which entries `during` are told to its followers. */
function slowJournal(kept: number, during: number[]): JournalStore {
  const listeners = new Set<JournalListener>();
  const all = Array.from({ length: kept }, (_, i) => ({ id: i + 1, entry: entry(i + 1) }));
  return {
    size: 100,
    add: () => undefined,
    read: () => [],
    clear: () => 0,
    memory: () => ({ bytes: 0, budget: 0, kept: 0, evicted: 0 }),
    counts: () => [],
    follow(_, listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async since(_, after) {
      const snapshot = all.filter((e) => e.id > after);
      // Told while the read is under way: some it has already, some it does not.
      for (const n of during) for (const listen of listeners) listen(entry(n), n);
      await new Promise((resolve) => setTimeout(resolve, 5));
      return { entries: snapshot, gap: false };
    },
  };
}

/** The text of a stream's first `count` events. */
async function firstEvents(journal: JournalStore, lastEventId: string, count: number): Promise<string[]> {
  const context = { deps: { config: { journalSize: 100 }, journal }, workspaceOf: () => 'ws' } as unknown as ControlContext;
  const stream = await journalHandlers(context).streamJournal({
    key: undefined,
    target: undefined,
    lastEventId,
    query: {},
    path: {} as never,
    body: undefined,
  });
  const controller = new AbortController();
  const texts: string[] = [];
  for await (const text of eventStreamText(stream as Parameters<typeof eventStreamText>[0], controller.signal)) {
    texts.push(text);
    if (texts.length === count) break;
  }
  return texts;
}

describe('the seam between the replay and the live entries', () => {
  it('sends each entry once, in order: those told during the read that it had are dropped, the later ones kept', async () => {
    // Entries 1 to 4 are kept; 4 and 5 are told while the read runs (4 is also in the read, 5 came after it).
    const texts = await firstEvents(slowJournal(4, [4, 5]), '2', 4);
    expect(texts.map((t) => /^id: (\d+)/.exec(t)?.[1] ?? t.split('\n')[0])).toEqual(['event: open', '3', '4', '5']);
  });
});

/** A stream of `events`, failing with `error` at its end when given. */
async function* events(list: ServerSentEvent[], error?: unknown): AsyncGenerator<ServerSentEvent> {
  yield* list;
  if (error !== undefined) throw error;
}

const open: ServerSentEvent = { event: 'open', data: '{}' };
const at = (id: number): ServerSentEvent => ({ event: 'entry', id: String(id), data: String(id) });

describe('resumingEvents', () => {
  it('opens again after a failure with the last id it yielded, yields one open event and no entry twice', async () => {
    const asked: (string | undefined)[] = [];
    const streams = [events([open, at(1), at(2)], new TypeError('terminated')), events([open, at(2), { event: 'gap', data: '{}' }, at(3)])];
    const controller = new AbortController();
    const seen: ServerSentEvent[] = [];
    for await (const event of resumingEvents(
      (last) => {
        asked.push(last);
        return streams.shift() ?? events([], new TypeError('fetch failed'));
      },
      { signal: controller.signal, lastEventId: '0' },
    )) {
      seen.push(event);
      if (event.id === '3') controller.abort();
    }
    expect(asked).toEqual(['0', '2']);
    expect(seen.map((e) => e.id ?? e.event)).toEqual(['open', '1', '2', 'gap', '3']);
  });

  it('ends with the error of a refusal, and with the stream when told not to reconnect', async () => {
    const refusal = new ControlError('bad id', 'streamJournal', 400, undefined);
    await expect(async () => {
      for await (const _ of resumingEvents(() => events([], refusal))) void _;
    }).rejects.toBe(refusal);
    let opened = 0;
    const seen: ServerSentEvent[] = [];
    for await (const event of resumingEvents(() => (opened++, events([open, at(1)])), { reconnect: false })) seen.push(event);
    expect([opened, seen.length]).toEqual([1, 2]);
  });
});
