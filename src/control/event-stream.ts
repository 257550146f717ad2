import { stringifyJson } from '../kernel/json.js';

/** One Server-Sent Event: its type, its data sent as JSON, and its id when it has one (a journal entry's). */
export interface SentEvent {
  event: string;
  id?: number;
  data: unknown;
}

/**
 * An answer that is a stream of Server-Sent Events (`text/event-stream`):
 * the events known when it opens, then those `follow` reports until the
 * client goes away (`follow` returns how to stop). `follow` is called
 * once, even for a stream that is never sent (a HEAD request, a client
 * gone): what it holds is let go then.
 */
export class EventStream {
  constructor(
    readonly first: readonly SentEvent[],
    readonly follow: (send: (event: SentEvent) => void) => () => void,
  ) {}

  /** Lets go of a stream that is not sent. */
  drop(): void {
    this.follow(() => {})();
  }
}

/** A comment line this often keeps proxies and idle timers from closing a quiet stream. */
export const HEARTBEAT_MS = 15_000;
/** A client that reads slower than events come is dropped rather than buffered for without end. */
export const MAX_UNREAD_BYTES = 4 * 1024 * 1024;

/**
 * An event in the wire format; JSON text never holds a raw line break, so
 * `data` is one line. Written exactly (`stringifyJson`): a journal entry's
 * body may hold an int64 past 2^53, read as a bigint.
 */
export const formatEvent = ({ event, id, data }: SentEvent): string =>
  `${id === undefined ? '' : `id: ${id}\n`}event: ${event}\ndata: ${stringifyJson(data)}\n\n`;

/** The text not yet read, and the one read waiting for more. */
interface Pending {
  texts: string[];
  bytes: number;
  ended: boolean;
  wake: (() => void) | undefined;
}

const DONE: IteratorResult<string> = { done: true, value: undefined };

/** What else ends a stream: the sandbox closing, and who is told once it has ended (its slot freed). */
export interface StreamEnds {
  closing?: AbortSignal | undefined;
  onEnd?: (() => void) | undefined;
}

/**
 * An event stream as the text of its events, piece by piece. It follows at
 * once, so no event between the answer and its first read is lost, and
 * stops following (listener removed, heartbeat cleared) when `signal` or
 * `closing` aborts, when the consumer stops iterating (`return`), or when
 * the consumer falls more than 4 MiB of unread text behind: then the
 * iterable ends, and `onEnd` is called once. A stream whose signal has
 * aborted already follows nothing.
 */
export function eventStreamText(stream: EventStream, signal?: AbortSignal, { closing, onEnd }: StreamEnds = {}): AsyncIterable<string> {
  const pending: Pending = { texts: [], bytes: 0, ended: false, wake: undefined };
  let stop = () => {};
  let beat: ReturnType<typeof setInterval> | undefined;
  const end = () => {
    if (pending.ended) return;
    pending.ended = true;
    pending.texts = [];
    clearInterval(beat);
    stop();
    signal?.removeEventListener('abort', end);
    closing?.removeEventListener('abort', end);
    onEnd?.();
    pending.wake?.();
  };
  // Counted in UTF-16 code units: a bound on memory, not an exact byte count, costs no encoding per event.
  const push = (text: string) => {
    if (pending.ended) return;
    pending.texts.push(text);
    pending.bytes += text.length;
    if (pending.bytes > MAX_UNREAD_BYTES) end();
    else pending.wake?.();
  };
  // The operation awaited before this (a journal read) may have outlived its client, or the sandbox: then nothing is started.
  if (signal?.aborted || closing?.aborted) {
    end();
    stream.drop();
  } else for (const event of stream.first) push(formatEvent(event));
  if (!pending.ended) {
    stop = stream.follow((event) => push(formatEvent(event)));
    beat = setInterval(() => push(': keep-alive\n\n'), HEARTBEAT_MS);
    signal?.addEventListener('abort', end, { once: true });
    closing?.addEventListener('abort', end, { once: true });
  }
  return { [Symbol.asyncIterator]: () => reader(pending, end) };
}

/** Reads what is pending, waiting when nothing is; `return` ends the stream. */
function reader(pending: Pending, end: () => void): AsyncIterator<string> {
  const next = async (): Promise<IteratorResult<string>> => {
    for (;;) {
      const text = pending.texts.shift();
      if (text !== undefined) {
        pending.bytes -= text.length;
        return { done: false, value: text };
      }
      if (pending.ended) return DONE;
      await new Promise<void>((resolve) => (pending.wake = resolve));
      pending.wake = undefined;
    }
  };
  return {
    next,
    return: () => {
      end();
      return Promise.resolve(DONE);
    },
  };
}
