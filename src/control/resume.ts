/**
 * A journal followed across dropped connections: the live stream opened
 * again after a server restart or a network failure, resumed after the last
 * entry seen (`lastEventId`), so that no entry is missed within the
 * journal's retention and none comes twice.
 */
import { ControlError } from './client.js';
import type { ServerSentEvent } from './sse.js';

/** How a journal is followed: until `signal` aborts. */
export interface FollowOptions {
  signal?: AbortSignal;
  /** Resume after the entry of this id (an `entry` event's `id`, from an earlier follow); default only what comes from now on. */
  lastEventId?: string;
  /** Open the stream again when it drops (the default), or end with it (`false`). */
  reconnect?: boolean;
}

/** The wait before the first reconnection, ms; it doubles on each failed one, up to MAX_DELAY_MS, and starts over once a stream opens. */
export const FIRST_DELAY_MS = 250;
export const MAX_DELAY_MS = 5_000;

/** A sandbox closed for good (a library sandbox's `close()`): it answers every request so, and a follow ends with it. */
const closedForGood = (error: unknown): boolean =>
  error instanceof ControlError && error.status === 503 && (error.body?.message ?? '').startsWith('The sandbox is closed');

/** Whether a failure may pass by itself: no answer at all (the server away, the connection cut), or a server error (503 while it stops). */
const passing = (error: unknown): boolean => !(error instanceof ControlError) || error.status === undefined || error.status >= 500;

/** Resolves after `ms`, or at once when `signal` aborts. */
function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}

/**
 * The events of the streams `open` makes, one after another: `open` is
 * called with the id of the last entry yielded, which the server resumes
 * after. The first `open` event is yielded, not those of reconnections;
 * a `gap` event is (entries after the last one seen were dropped before
 * the stream came back); an entry whose id is not above the last one
 * yielded is not. A refusal (a 4xx: a bad token, key or id) ends it with
 * its error; any other failure is waited out, the waits doubling up to
 * MAX_DELAY_MS, until `signal` aborts or the sandbox says it is closed
 * for good: then it ends without an error.
 */
export async function* resumingEvents(
  open: (lastEventId: string | undefined, signal: AbortSignal | undefined) => AsyncIterable<ServerSentEvent>,
  { signal, lastEventId, reconnect = true }: FollowOptions = {},
): AsyncGenerator<ServerSentEvent> {
  let last = lastEventId;
  let opened = false;
  let delay = FIRST_DELAY_MS;
  while (!signal?.aborted) {
    try {
      for await (const event of open(last, signal)) {
        delay = FIRST_DELAY_MS;
        if (event.event === 'open' && opened) continue;
        opened ||= event.event === 'open';
        if (event.id !== undefined) {
          if (last !== undefined && Number(event.id) <= Number(last)) continue;
          last = event.id;
        }
        yield event;
      }
    } catch (error) {
      if (signal?.aborted || closedForGood(error)) return;
      if (!reconnect || !passing(error)) throw error;
    }
    if (!reconnect) return;
    await pause(delay, signal);
    delay = Math.min(delay * 2, MAX_DELAY_MS);
  }
}
