import { ApiError } from '../kernel/errors.js';

/** One turn of the event loop: timers, then whatever I/O has arrived (a socket's close among it). */
const turn = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

/**
 * The last step of a control operation before it writes: a client that has
 * left by now gets nothing written for it, so a long operation whose client
 * gave up (or whose connection a shutdown closed) stops here, all or
 * nothing, instead of changing data nobody will be told about.
 *
 * The work before it (a large body parsed and checked, a million pets
 * generated) runs without a pause, so the news of a closed connection may
 * be waiting unheard: two turns of the event loop let it in (the first
 * may end before the loop polls for I/O). That costs about two
 * milliseconds, paid only by operations that write.
 *
 * Rejects with a 400 `invalid_request` (as a delay cut short by a leaving
 * client is reported): no client reads it, the journal and the log do.
 */
export async function beforeWrite(signal: AbortSignal | undefined): Promise<void> {
  if (signal === undefined) return;
  if (!signal.aborted) {
    await turn();
    await turn();
  }
  if (signal.aborted) throw ApiError.of('invalid_request', 'The client closed the connection before the operation wrote anything: nothing was changed.');
}
