/**
 * What closing an engine ends. Its signal is handed to every wait that has
 * no end of its own (a fault's delay, a live journal tail), which stops on
 * it; the answers still pending when it aborts are given the engine's
 * refusal at once, and so is every request after it. The engine is the one
 * place every way in passes through, so one close reaches them all.
 */
import { isEngineStream, type EngineRequest, type EngineResponse } from '../kernel/types.js';

type Handle = (request: EngineRequest) => EngineResponse | Promise<EngineResponse>;

/** A late answer's stream is ended unread: a live tail that opened as the engine closed follows nothing. */
function dropLate(response: EngineResponse): void {
  const { body } = response;
  if (isEngineStream(body)) void body[Symbol.asyncIterator]().return?.();
}

/**
 * `handle` while `closing` has not aborted; then `refuse` of each request,
 * and of each one still waiting for its answer, at once. The fast case (an
 * answer made without a promise) pays one check of a flag; an answer that
 * waits is tracked until it settles.
 */
export function whileOpen(handle: Handle, closing: AbortSignal, refuse: (request: EngineRequest) => EngineResponse): Handle {
  const pending = new Map<(response: EngineResponse) => void, EngineRequest>();
  let closed = closing.aborted;
  closing.addEventListener(
    'abort',
    () => {
      closed = true;
      for (const [answer, request] of pending) answer(refuse(request));
      pending.clear();
    },
    { once: true },
  );
  return (request) => {
    if (closed) return refuse(request);
    const answer = handle(request);
    if (!(answer instanceof Promise)) return answer;
    return new Promise<EngineResponse>((resolve, reject) => {
      let settled = false;
      const give = (response: EngineResponse) => {
        if (settled) return dropLate(response);
        settled = true;
        pending.delete(give);
        resolve(response);
      };
      pending.set(give, request);
      answer.then(give, (error: unknown) => {
        pending.delete(give);
        if (!settled) reject(error as Error);
      });
    });
  };
}
