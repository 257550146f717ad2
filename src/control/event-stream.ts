import type { ServerResponse } from 'node:http';
import { stringifyJson } from '../exact-json.js';
import { requestSignal } from '../http/request-signal.js';

/** One Server-Sent Event: its type and its data, sent as JSON. */
export interface SentEvent {
  event: string;
  data: unknown;
}

/**
 * An answer that is a stream of Server-Sent Events (`text/event-stream`):
 * the events known when it opens, then those `follow` reports until the
 * client goes away (`follow` returns how to stop).
 */
export class EventStream {
  constructor(
    readonly first: readonly SentEvent[],
    readonly follow: (send: (event: SentEvent) => void) => () => void,
  ) {}
}

/** A comment line this often keeps proxies and idle timers from closing a quiet stream. */
export const HEARTBEAT_MS = 15_000;
/** A client that reads slower than events come is dropped rather than buffered for without end. */
const MAX_BUFFERED_BYTES = 4 * 1024 * 1024;

/**
 * An event in the wire format; JSON text never holds a raw line break, so
 * `data` is one line. Written exactly (`stringifyJson`): a journal entry's
 * body may hold an int64 past 2^53, read as a bigint.
 */
export const formatEvent = ({ event, data }: SentEvent): string => `event: ${event}\ndata: ${stringifyJson(data)}\n\n`;

/**
 * Writes an event stream until the client closes it (or cannot keep up).
 * The operation awaited before this (a journal read) may have outlived its
 * client: then the response has closed already and nothing is started,
 * since no `close` would ever come to stop it.
 */
export function sendEventStream(res: ServerResponse, stream: EventStream): void {
  const signal = requestSignal(res);
  if (signal.aborted) return;
  res.statusCode = 200;
  res.setHeader('Content-Type', 'text/event-stream');
  res.setHeader('Cache-Control', 'no-store');
  const write = (text: string) => {
    if (res.writableLength > MAX_BUFFERED_BYTES) res.destroy();
    else if (!res.destroyed) res.write(text);
  };
  for (const event of stream.first) write(formatEvent(event));
  const stop = stream.follow((event) => write(formatEvent(event)));
  const beat = setInterval(() => write(': keep-alive\n\n'), HEARTBEAT_MS);
  signal.addEventListener(
    'abort',
    () => {
      clearInterval(beat);
      stop();
    },
    { once: true },
  );
}
