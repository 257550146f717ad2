/**
 * A journal stream opened as any client opens it, `Last-Event-ID` header
 * included (the typed client sends the query parameter), its events read
 * one by one within a time bound.
 */
import { createEventParser, type ServerSentEvent } from '../../src/control/sse.js';

export interface OpenedStream {
  status: number;
  /** The next event, or a failure after `ms` without one. */
  next(ms?: number): Promise<ServerSentEvent>;
  /** Events until `done` says it has them all, within `ms` in all. */
  until(done: (events: ServerSentEvent[]) => boolean, ms?: number): Promise<ServerSentEvent[]>;
  /** Drops the connection. */
  close(): void;
  /** The body when the answer was not a stream. */
  body: unknown;
}

export interface StreamTarget {
  origin: string;
  adminToken: string;
  key?: string;
  /** Sent as the `Last-Event-ID` header. */
  lastEventId?: string;
  /** The query string, e.g. `?lastEventId=3`. */
  search?: string;
  path?: string;
}

/** Opens `/__sandbox/journal/stream` (or `path`) of `target`. */
export async function openStream(target: StreamTarget): Promise<OpenedStream> {
  const controller = new AbortController();
  const headers: Record<string, string> = { authorization: `Bearer ${target.adminToken}` };
  if (target.key !== undefined) headers['x-sandbox-key'] = target.key;
  if (target.lastEventId !== undefined) headers['last-event-id'] = target.lastEventId;
  const res = await fetch(`${target.origin}/__sandbox${target.path ?? '/journal/stream'}${target.search ?? ''}`, { headers, signal: controller.signal });
  const queue: ServerSentEvent[] = [];
  let wake: (() => void) | undefined;
  const feed = createEventParser((event) => {
    queue.push(event);
    wake?.();
  });
  let body: unknown;
  if (res.headers.get('content-type')?.startsWith('text/event-stream') && res.body) {
    const decoder = new TextDecoder();
    const reader = res.body.getReader();
    void (async () => {
      for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) feed(decoder.decode(chunk.value, { stream: true }));
    })().catch(() => undefined);
  } else body = JSON.parse(await res.text()) as unknown;
  const next = async (ms = 20_000): Promise<ServerSentEvent> => {
    const deadline = Date.now() + ms;
    while (queue.length === 0) {
      if (Date.now() > deadline) throw new Error(`No event within ${ms} ms`);
      await new Promise<void>((resolve) => {
        wake = resolve;
        setTimeout(resolve, 100);
      });
    }
    return queue.shift() as ServerSentEvent;
  };
  return {
    status: res.status,
    body,
    next,
    async until(done, ms = 20_000) {
      const events: ServerSentEvent[] = [];
      const deadline = Date.now() + ms;
      while (!done(events)) events.push(await next(Math.max(1, deadline - Date.now())));
      return events;
    },
    close: () => controller.abort(),
  };
}

/** The `limit` query parameter of an entry event's request: how the tests tell their requests apart. */
export const limitOf = (event: ServerSentEvent): string => (JSON.parse(event.data) as { query: { limit?: string } }).query.limit ?? '';

/** The entry events among `events`. */
export const entriesOf = (events: readonly ServerSentEvent[]): ServerSentEvent[] => events.filter((e) => e.event === 'entry');
