import type { AnsweredRequest } from './operation.js';
import type { ControlEngine } from './control/engine.js';
import { servesV1 } from './served-paths.js';
import type { EngineRequest, EngineResponse } from './types.js';
import type { V1Engine } from './v1-engine.js';

/** The whole engine as one function: a request of plain values in, its answer out, or undefined for a path it does not serve. */
export type EngineHandle = (request: EngineRequest) => EngineResponse | Promise<EngineResponse> | undefined;

export interface EngineParts {
  v1: V1Engine;
  control: ControlEngine;
  /** Hears each answer of the control plane and the probes (the /v1 engine reports its own): request log, metrics. */
  onAnswered?: ((answered: AnsweredRequest) => void) | undefined;
}

/**
 * `/v1`, the control plane and the probes in one function, for a way in with
 * no router of its own (the fetch handler, the middleware): the control
 * engine takes what it owns, the /v1 engine what is under `/v1`. Each
 * answer is reported once, as the Node server reports it.
 */
export function composeEngine({ v1, control, onAnswered }: EngineParts): EngineHandle {
  return (request) => {
    const start = performance.now();
    const controlled = control.handle(request);
    if (controlled)
      return controlled.then((response) => {
        onAnswered?.({
          method: request.method,
          headers: request.headers,
          url: request.url,
          status: response.status,
          durationMs: performance.now() - start,
          requestId: String(response.headers['X-Request-Id'] ?? ''),
          operation: response.operation,
        });
        return response;
      });
    return servesV1(request.url) ? v1.handle(request) : undefined;
  };
}
