import type { Config } from '../config/load.js';
import { ApiError } from '../kernel/errors.js';
import type { ControlPlane } from '../control/plane.js';
import type { Cors } from '../v1/cors.js';
import { errorAnswer } from '../kernel/error-exit.js';
import { exchangeValue, type Exchange } from '../v1/exchange.js';
import { splitUrl, underV1 } from '../v1/match.js';
import type { AnsweredRequest, V1Exchange } from '../kernel/operation.js';
import { requestIdOf } from '../kernel/request-id.js';
import type { EngineRequest, EngineResponse, OutHeaders } from '../kernel/types.js';
import type { V1Pipeline } from '../v1/pipeline.js';

/** What the dispatcher announces, once per request, when its answer is made: the journal, the request log and the metrics listen. */
export interface EngineEvents {
  /** A /v1 request (but a preflight) and what it became. */
  exchange(exchange: V1Exchange): void;
  /** Any other request: the control plane, the probes, a preflight, an unknown path. */
  answered(answered: AnsweredRequest): void;
}

/** The engine: one function every way in calls, a request of plain values in, its answer out. Never rejects. */
export interface Engine {
  handle(request: EngineRequest): EngineResponse | Promise<EngineResponse>;
}

export interface EngineDeps {
  config: Pick<Config, 'corsOrigins'>;
  v1: V1Pipeline;
  control: ControlPlane;
  /** /v1's CORS, which also answers the preflights outside /v1 and the control plane. */
  cors: Cors;
  events: EngineEvents;
  /** Hears a failure of a listener of `events`; the client's answer is not changed by it. */
  onUnexpected?: ((error: unknown, request: { method: string; url: string }) => void) | undefined;
}

/** The path and query of a request target: an absolute-form target (`GET http://host/path`) routes by its path. */
const originForm = (target: string): string => target.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i, '') || '/';

const isPromise = <T>(value: T | Promise<T>): value is Promise<T> => value instanceof Promise;

/**
 * The dispatcher: every way in (the Node server and middleware, the fetch
 * handler, MSW, the library's `fetch` and `handle`) calls its `handle`, so
 * the answers cannot differ by way in. A request under `/v1` goes to the /v1
 * pipeline (its preflights answered here, with /v1's CORS), one the control
 * plane owns to the control plane, anything else is answered here: the
 * unknown path's 404, with /v1's CORS. Each answer is announced once, when
 * it is made (before the way in writes it).
 */
export function createEngine({ config, v1, control, cors, events, onUnexpected }: EngineDeps): Engine {
  const allows = (origin: string) => config.corsOrigins === '*' || config.corsOrigins.includes(origin);
  // A listener that throws is logged; the answer stands, and is never made a second time.
  const answered = (request: EngineRequest, start: number, response: EngineResponse, operation?: string): EngineResponse => {
    const { method, headers, url } = request;
    const requestId = String(response.headers['X-Request-Id'] ?? '');
    try {
      events.answered({ method, headers, url, status: response.status, durationMs: performance.now() - start, requestId, operation });
    } catch (error) {
      onUnexpected?.(error, request);
    }
    return response;
  };
  const exchanged = (ex: Exchange): EngineResponse => {
    try {
      events.exchange(exchangeValue(ex));
    } catch (error) {
      onUnexpected?.(error, ex.request);
    }
    return ex.response as EngineResponse;
  };

  /** A preflight answered 204 with /v1's CORS headers. */
  const preflight = (request: EngineRequest, start: number, out: OutHeaders): EngineResponse => {
    cors.preflight(request.headers, out);
    return answered(request, start, { status: 204, headers: out, body: undefined });
  };

  /**
   * A path the engine serves nothing at: the Error body's 404, with /v1's
   * CORS headers (a page calling a wrong path learns why). OPTIONS there is
   * a preflight only from an origin /v1's CORS allows, else the same 404.
   */
  function unknown(request: EngineRequest, start: number): EngineResponse {
    const out: OutHeaders = { 'X-Request-Id': requestIdOf(request.headers) };
    const { method, headers } = request;
    if (method === 'OPTIONS') {
      const { origin } = headers;
      if (typeof origin === 'string' && headers['access-control-request-method'] !== undefined && allows(origin)) return preflight(request, start, out);
    } else cors.actual(headers, out);
    const path = splitUrl(request.url).path;
    const error = ApiError.of('not_found', `No route ${method} ${path}. The Pet Store interface is served under /v1.`);
    const { status, text } = errorAnswer(error, out, request);
    return answered(request, start, { status, headers: out, body: method === 'HEAD' ? undefined : text });
  }

  function handle(given: EngineRequest): EngineResponse | Promise<EngineResponse> {
    const start = performance.now();
    const request = given.url.charCodeAt(0) === 47 ? given : { ...given, url: originForm(given.url) };
    if (underV1(request.url)) {
      if (request.method === 'OPTIONS') return preflight(request, start, { 'X-Request-Id': requestIdOf(request.headers) });
      const ex = v1.handle(request);
      return isPromise(ex) ? ex.then(exchanged) : exchanged(ex);
    }
    const controlled = control.handle(request);
    if (controlled) return controlled.then((response) => answered(request, start, response, response.operation));
    return unknown(request, start);
  }

  return { handle };
}
