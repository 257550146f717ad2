/**
 * A client of a workspace's live journal through the balancer, as a
 * dashboard would be: it reads the Server-Sent Events, and when its stream
 * ends (its instance went away) it comes back with `Last-Event-ID`, to
 * whichever instance the balancer picks, until it is told to stop.
 */
import { setTimeout as sleep } from 'node:timers/promises';

export interface StreamEvent {
  id: string | undefined;
  event: string;
  data: string;
}

export interface FollowedStream {
  /** Every `entry` event, in the order received, across every reconnection. */
  entries: StreamEvent[];
  /** Other events (`open`, and a `gap` if entries were lost). */
  others: StreamEvent[];
  /** Streams opened (the first and each resumption). */
  connections: number;
  /** Answers that were not a stream: statuses other than a 503 with Retry-After. */
  unexpected: string[];
  /** Stops following; resolves once the stream is closed. */
  stop(): Promise<void>;
}

/** Splits SSE text into its events; returns the events and what is left of an unfinished one. */
export function parseEvents(text: string): { events: StreamEvent[]; rest: string } {
  const blocks = text.split('\n\n');
  const rest = blocks.pop() ?? '';
  const events = blocks.flatMap((block) => {
    const fields = new Map<string, string>();
    for (const line of block.split('\n')) {
      if (line.startsWith(':')) continue;
      const at = line.indexOf(':');
      const [field, value] = at < 0 ? [line, ''] : [line.slice(0, at), line.slice(at + 1).replace(/^ /, '')];
      fields.set(field, fields.has(field) && field === 'data' ? `${fields.get(field)}\n${value}` : value);
    }
    return fields.size === 0 ? [] : [{ id: fields.get('id'), event: fields.get('event') ?? 'message', data: fields.get('data') ?? '' }];
  });
  return { events, rest };
}

/** Reads one stream until it ends or `signal` aborts; hands each event to `seen`. */
async function readStream(res: Response, seen: (event: StreamEvent) => void): Promise<void> {
  const decoder = new TextDecoder();
  let pending = '';
  for await (const chunk of res.body as AsyncIterable<Uint8Array>) {
    const { events, rest } = parseEvents(pending + decoder.decode(chunk, { stream: true }));
    pending = rest;
    events.forEach(seen);
  }
}

/** Follows `key`'s journal through `origin` with the admin token, resuming after each end. */
export function followJournal(origin: string, token: string, key: string): FollowedStream {
  const abort = new AbortController();
  let loop: Promise<void> = Promise.resolve();
  const followed: FollowedStream = {
    entries: [],
    others: [],
    connections: 0,
    unexpected: [],
    async stop() {
      abort.abort();
      await loop;
    },
  };
  let lastId: string | undefined;
  const seen = (event: StreamEvent) => {
    if (event.id !== undefined) lastId = event.id;
    (event.event === 'entry' ? followed.entries : followed.others).push(event);
  };
  loop = (async () => {
    while (!abort.signal.aborted) {
      try {
        const headers: Record<string, string> = { authorization: `Bearer ${token}`, 'x-sandbox-key': key };
        if (lastId !== undefined) headers['last-event-id'] = lastId;
        const res = await fetch(`${origin}/__sandbox/journal/stream`, { headers, signal: abort.signal });
        if (res.status === 200) {
          followed.connections++;
          await readStream(res, seen);
        } else {
          const text = await res.text();
          if (!(res.status === 503 && res.headers.get('retry-after'))) followed.unexpected.push(`${res.status} ${text.slice(0, 200)}`);
        }
      } catch {
        // The stream broke (its instance went away) or we stopped: come back, or end.
      }
      if (!abort.signal.aborted) await sleep(100);
    }
  })();
  return followed;
}
