import type { ServerResponse } from 'node:http';

/** One signal per response, made on first ask: the fast path, which never waits, pays nothing for it. */
const signals = new WeakMap<ServerResponse, AbortSignal>();

/**
 * A signal aborted once `res` closes: answered, or its client gone. Every
 * wait without an end of its own (a live tail, an injected delay, an
 * upstream) stops on it, so a client that leaves takes its timers,
 * listeners and connections with it. Safe to ask for late: a response that
 * closed already gives a signal aborted already, so no `close` is missed
 * between an `await` and the question.
 */
export function requestSignal(res: ServerResponse): AbortSignal {
  let signal = signals.get(res);
  if (signal) return signal;
  const controller = new AbortController();
  signal = controller.signal;
  signals.set(res, signal);
  if (res.closed || res.destroyed) controller.abort();
  else res.once('close', () => controller.abort());
  return signal;
}
