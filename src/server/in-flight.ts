import type { Engine } from '../engine/engine.js';
import { errorAnswer } from '../kernel/error-exit.js';
import { ApiError } from '../kernel/errors.js';
import type { EngineRequest, EngineResponse, OutHeaders } from '../kernel/types.js';
import type { RefusedRequest } from '../ops/request-log.js';

/** Seconds a request refused while the sandbox stops is told to wait (`Retry-After`): another instance, or this one restarted, answers it then. */
export const STOPPING_RETRY_AFTER_S = 1;

/** The engine as the Node server calls it while it serves, and how it stops serving. */
export interface ServingEngine extends Engine {
  /**
   * Stops serving: every request from now on is answered 503 with
   * `Retry-After` and `Connection: close`, without running; resolves once
   * every request already running has its answer (and so its writes done,
   * or given up before them when its client left).
   */
  stopServing(): Promise<void>;
}

/** The answer of a request that arrives while the sandbox stops. */
function stopping(request: EngineRequest): { response: EngineResponse; refused: RefusedRequest } {
  const error = ApiError.of('service_unavailable', 'The sandbox is stopping and takes no new requests. Try again shortly.', {
    'Retry-After': String(STOPPING_RETRY_AFTER_S),
  });
  const headers: OutHeaders = { Connection: 'close' };
  const { status, text } = errorAnswer(error, headers, request);
  return { response: { status, headers, body: request.method === 'HEAD' ? undefined : text }, refused: { status, code: error.code } };
}

/**
 * The engine with the requests it is answering counted, so that a stop
 * waits for them before the stores close: a write under way (a create, a
 * control operation's one write) ends before the log says `stopped`, and
 * none begins after. An answer made at once (a read from memory) is never
 * in flight; a promised one is until it settles. `onRefused` hears of each
 * request refused while stopping (the request log and the metrics).
 */
export function servingEngine(engine: Engine, onRefused: (refused: RefusedRequest) => void): ServingEngine {
  let serving = true;
  let inFlight = 0;
  let wake: (() => void) | undefined;
  let settled: Promise<void> | undefined;
  const leave = () => {
    inFlight -= 1;
    if (inFlight === 0) wake?.();
  };
  return {
    handle(request) {
      if (!serving) {
        const { response, refused } = stopping(request);
        onRefused(refused);
        return response;
      }
      const answer = engine.handle(request);
      if (!(answer instanceof Promise)) return answer;
      inFlight += 1;
      return answer.then(
        (response) => {
          leave();
          return response;
        },
        // The engine never rejects; if a defect made it, the stop must still not wait for it.
        (error: unknown) => {
          leave();
          throw error;
        },
      );
    },
    stopServing() {
      serving = false;
      settled ??= inFlight === 0 ? Promise.resolve() : new Promise<void>((resolve) => (wake = resolve));
      return settled;
    },
  };
}
