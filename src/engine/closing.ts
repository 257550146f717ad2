/**
 * What closing an engine ends. Its signal is handed to every wait that has
 * no end of its own (a fault's delay, a live journal tail), which stops on
 * it; the answers still pending when it aborts are given the engine's
 * refusal at once (`answerPendingAtClose`), and so is every request after
 * it. The engine is the one place every way in passes through, so one close
 * reaches them all. The per-request part, one check and a map of what is
 * pending, is the dispatcher's own (engine.ts): a create crosses no more files.
 */
import { ApiError } from '../kernel/errors.js';
import { isEngineStream, type EngineRequest, type EngineResponse } from '../kernel/types.js';

/** Every request once the engine is closed: the sandbox does not come back, so no `Retry-After`. */
export const CLOSED = ApiError.of('service_unavailable', 'The sandbox is closed: it answers no more requests.');

/** The answers not made yet: each one's way to its caller, and its request. */
export type PendingAnswers = Map<(response: EngineResponse) => void, EngineRequest>;

/** A late answer, made after its request got the refusal: its stream is ended unread, so a live tail that opened as the engine closed follows nothing. */
export function dropLate(response: EngineResponse): void {
  const { body } = response;
  if (isEngineStream(body)) void body[Symbol.asyncIterator]().return?.();
}

/** When `closing` aborts, every answer still pending is given `refuse` of its request at once. */
export function answerPendingAtClose(closing: AbortSignal, pending: PendingAnswers, refuse: (request: EngineRequest) => EngineResponse): void {
  const answerAll = () => {
    for (const [give, request] of pending) give(refuse(request));
  };
  if (closing.aborted) answerAll();
  else closing.addEventListener('abort', answerAll, { once: true });
}
