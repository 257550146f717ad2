import type { AnsweredRequest } from './operation.js';
import type { ControlEngine } from './control/engine.js';
import { Exchange } from './exchange.js';
import { underV1 } from './match.js';
import type { EngineRequest, EngineResponse } from './types.js';
import type { V1Engine } from './v1-engine.js';

/** The whole engine as one function: a request of plain values in, its answer out, or undefined for a path it does not serve. */
export type EngineHandle = (request: EngineRequest) => EngineResponse | Promise<EngineResponse> | undefined;

/**
 * The answer to a request whose body could not be read (over the limit, not
 * decodable), as the engine gives it on the server: a `/v1` request gets its
 * CORS headers, request id, auth and media-type checks first, and is
 * journaled. Undefined for a request outside `/v1`: the way in answers it.
 */
export type EngineRefuse = (request: EngineRequest, error: unknown) => EngineResponse | undefined;

/** The engine: `handle`, and `refuse` for the request a way in could not read. */
export interface Engine {
  handle: EngineHandle;
  refuse: EngineRefuse;
}

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
export function composeEngine({ v1, control, onAnswered }: EngineParts): Engine {
  const refuse: EngineRefuse = (request, error) => {
    if (!underV1(request.url)) return undefined;
    const ex = v1.begin(request);
    if (!(ex instanceof Exchange)) return ex;
    // As the Node adapter: a refused key, route or media type is the answer before the body's failure.
    return v1.admit(ex, true) ?? v1.fail(ex, error);
  };
  const handle: EngineHandle = (request) => {
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
    return underV1(request.url) ? v1.handle(request) : undefined;
  };
  return { handle, refuse };
}
