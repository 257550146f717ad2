/**
 * The dispatcher: one `handle(request)` that every way in calls (the Node
 * server and middleware, the fetch handler, MSW, the library's `fetch` and
 * `handle`), so the answers cannot differ by way in. It applies the
 * exposure rule first (engine/exposure-gate.ts), gives each request its id,
 * owns /v1's CORS, and routes: /v1 to its pipeline, the control plane's
 * requests to it, anything else to the unknown path's 404.
 */
import { echo } from '../kernel/echo.js';
import { errorAnswer } from '../kernel/error-exit.js';
import { ApiError } from '../kernel/errors.js';
import type { EngineHeaders, EngineRequest, EngineResponse, OutHeaders } from '../kernel/types.js';
import { exchangeValue, type Exchange } from '../v1/exchange.js';
import { splitUrl } from '../v1/match.js';
import { routing } from './served-paths.js';
import type { ClosableEngine, Engine, EngineDeps } from './engine-types.js';
import { answerPendingAtClose, CLOSED, dropLate, type PendingAnswers } from './closing.js';
import { exposureRule, refusedAnswer, type ExposureConfig } from './exposure-gate.js';
import { uuidFromRandomValues } from '../kernel/uuid.js';

export type { ClosableEngine, Engine, EngineDeps, EngineEvents, ServedApi } from './engine-types.js';

/** The path and query of a request target: an absolute-form target (`GET http://host/path`) routes by its path. */
const originForm = (target: string): string => target.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i, '') || '/';

/**
 * The dispatcher. A request under `/v1` goes to the /v1 pipeline with the
 * first headers of its answer (its id, /v1's CORS; a preflight is answered
 * here), one the control plane owns goes to it with its id, anything else
 * is answered here: the unknown path's 404, with /v1's CORS. Each answer is
 * announced once, when it is made (before the way in writes it).
 */
export function createEngine({ config, apis, control, events, onUnexpected, closing = new AbortController(), tracing }: EngineDeps): ClosableEngine {
  const cors = createCors(config);
  const { apiOf, servedUnder, serves } = routing(apis);
  const gate = createGate(config);
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
  function unknown(request: EngineRequest, start: number, out: OutHeaders): EngineResponse {
    const { method, headers } = request;
    if (method === 'OPTIONS') {
      const { origin } = headers;
      if (typeof origin === 'string' && headers['access-control-request-method'] !== undefined && allows(origin)) return preflight(request, start, out);
    } else cors.actual(headers, out);
    const path = splitUrl(request.url).path;
    const error = ApiError.of('not_found', `No route ${method} ${echo(path, '')}. ${servedUnder}`);
    const { status, text } = errorAnswer(error, out, request);
    return answered(request, start, { status, headers: out, body: method === 'HEAD' ? undefined : text });
  }

  function handle(given: EngineRequest): EngineResponse | Promise<EngineResponse> {
    const start = performance.now();
    const requestId = requestIdOf(given.headers);
    const refusal = given.peer === undefined ? undefined : gate(given, given.peer);
    if (refusal) return answered(given, start, refusedAnswer(refusal, given, requestId));
    const request = given.url.charCodeAt(0) === 47 ? given : { ...given, url: originForm(given.url) };
    const api = apiOf(request.url);
    if (api) {
      const out: OutHeaders = { 'X-Request-Id': requestId };
      if (request.method === 'OPTIONS') return preflight(request, start, out);
      cors.actual(request.headers, out);
      const ex = api.pipeline.handle(request, out);
      return ex instanceof Promise ? ex.then(exchanged) : exchanged(ex);
    }
    const controlled = control.handle(request, requestId);
    if (controlled) return controlled.then((response) => answered(request, start, response, response.operation));
    return unknown(request, start, { 'X-Request-Id': requestId });
  }

  // Chosen once: with tracing off, a request takes the same path as without it.
  const traced: Handle = tracing ? (request) => tracing.run(request, () => handle(request)) : handle;
  return { handle: whileOpen(traced, closing.signal, refusal(cors, apiOf)), screen: screenOf(gate), serves, close: () => closing.abort(CLOSED) };
}

/** The exposure rule's refusal of a request, made before `handle` would make it (`Engine.screen`). */
const screenOf =
  (gate: Gate) =>
  (request: EngineRequest): EngineResponse | undefined => {
    const refusal = request.peer === undefined ? undefined : gate(request, request.peer);
    return refusal && refusedAnswer(refusal, request, requestIdOf(request.headers));
  };

type Handle = Engine['handle'];

/** A request met by the engine's close: the Error body with its id (and /v1's CORS), not reported (the journal is closed). */
const refusal =
  (cors: Cors, apiOf: (url: string) => unknown) =>
  (request: EngineRequest): EngineResponse => {
    const out: OutHeaders = { 'X-Request-Id': requestIdOf(request.headers) };
    if (apiOf(originForm(request.url))) cors.actual(request.headers, out);
    const { status, text } = errorAnswer(CLOSED, out, request);
    return { status, headers: out, body: request.method === 'HEAD' ? undefined : text };
  };

/**
 * `handle` until `closing` aborts; then `refuse` of every request, and of
 * each still waiting for its answer, at once (engine/closing.ts). Here, not
 * there: it runs for every request, and a create crosses no more files.
 */
function whileOpen(handle: Handle, closing: AbortSignal, refuse: (request: EngineRequest) => EngineResponse): Handle {
  const pending: PendingAnswers = new Map();
  answerPendingAtClose(closing, pending, refuse);
  return (request) => {
    if (closing.aborted) return refuse(request);
    const answer = handle(request);
    if (!(answer instanceof Promise)) return answer;
    return new Promise((resolve, reject) => {
      // Given once: by the engine's answer, or by the close, whichever comes first; a late answer is dropped.
      const give = (response: EngineResponse) => (pending.delete(give) ? resolve(response) : dropLate(response));
      pending.set(give, request);
      answer.then(give, (error: unknown) => {
        pending.delete(give);
        reject(error as Error);
      });
    });
  };
}

/** A client's id is kept when it is short visible ASCII (a UUID, a trace id); anything else is replaced, never echoed. */
const ACCEPTED = /^[\x21-\x7e]{1,128}$/;

/**
 * The exposure rule (engine/exposure-gate.ts) as the dispatcher applies it
 * to a request a way in saw come from `peer`: the Host first, then loopback
 * only while the documented secrets are accepted; the probes and /metrics
 * are open. The Host values already allowed cost a lookup (bounded, emptied
 * when full); a peer's address, a test of its text.
 */
type Gate = (request: EngineRequest, peer: string) => ApiError | undefined;

function createGate(config: ExposureConfig): Gate {
  const exposure = exposureRule(config);
  const hostsAllowed = new Set<string>();
  return (request, peer) => {
    const { url } = request;
    const q = url.indexOf('?');
    if (OPEN_PATHS.has(q === -1 ? url : url.slice(0, q))) return undefined;
    // An absolute-form target names where it was sent in its authority, not in Host.
    const host = url.charCodeAt(0) === 47 ? request.headers.host : (/^[a-z][a-z0-9+.-]*:\/\/([^/?#]*)/i.exec(url)?.[1] ?? request.headers.host);
    const name = Array.isArray(host) ? host[0] : host;
    if (name !== undefined && name !== '' && !hostsAllowed.has(name)) {
      const refused = exposure.judgeHost(name);
      if (refused) return refused;
      if (hostsAllowed.size >= 64) hostsAllowed.clear();
      hostsAllowed.add(name);
    }
    return exposure.loopbackOnly !== undefined && !isLoopbackPeer(peer) ? exposure.loopbackOnly : undefined;
  };
}

/** Paths every peer may ask by any name: the probes and the metrics carry no secret (/metrics has its own token). */
const OPEN_PATHS = new Set(['/livez', '/readyz', '/metrics']);

/**
 * Whether a peer's address (a socket's `remoteAddress`) is this machine's
 * loopback: 127.0.0.0/8, ::1, or 127.x mapped into IPv6, in the forms a
 * socket reports them; or '', the peer of a Unix domain socket.
 */
export function isLoopbackPeer(address: string): boolean {
  return address === '' || address.startsWith('127.') || address === '::1' || /^(::ffff:127\.|0:0:0:0:0:0:0:1$)/i.test(address);
}

/** Node's and a secure page's native UUIDs, else the same made from random values. */
const newUuid: () => string = typeof crypto.randomUUID === 'function' ? () => crypto.randomUUID() : uuidFromRandomValues;

/**
 * A request's id: the client's `X-Request-Id` if it is acceptable, else a
 * new UUID. Answers carry it as `X-Request-Id`, so a client and the log
 * line name the same request.
 */
export function requestIdOf(headers: EngineHeaders): string {
  const given = headers['x-request-id'];
  return typeof given === 'string' && ACCEPTED.test(given) ? given : newUuid();
}

/** Headers a script in a browser may read on a /v1 answer. */
const EXPOSED = 'Deprecation,Sunset,Link,WWW-Authenticate';
const ALLOWED_HEADERS = 'Authorization,Content-Type,Prefer,Accept,X-Sandbox-Key';
const ALLOWED_METHODS = 'GET,HEAD,PUT,PATCH,POST,DELETE';

/** CORS of /v1 (`--cors-origins`): the headers of an actual request, and the answer's headers of a preflight. */
interface Cors {
  /** Adds the headers of an actual (non-OPTIONS) request's answer to `out`. */
  actual(headers: EngineHeaders, out: OutHeaders): void;
  /** Adds a preflight's headers to `out`: every OPTIONS request is answered 204 with them. */
  preflight(headers: EngineHeaders, out: OutHeaders): void;
}

/**
 * The headers the `cors` package sets with the sandbox's options (any origin,
 * or a list reflected with `Vary: Origin`; the allowed headers, the exposed
 * headers, a max age of 600 s), written out as plain values so that any
 * transport can carry them. With any origin allowed, an actual request gets
 * two constant headers.
 */
function createCors(config: EngineDeps['config']): Cors {
  const origins = config.corsOrigins;
  const origin =
    origins === '*' ?
      (_headers: EngineHeaders, out: OutHeaders) => void (out['Access-Control-Allow-Origin'] = '*')
    : (headers: EngineHeaders, out: OutHeaders) => {
        const asked = headers.origin;
        if (typeof asked === 'string' && origins.includes(asked)) out['Access-Control-Allow-Origin'] = asked;
        out.Vary = 'Origin';
      };
  return {
    actual(headers, out) {
      origin(headers, out);
      out['Access-Control-Expose-Headers'] = EXPOSED;
    },
    preflight(headers, out) {
      origin(headers, out);
      out['Access-Control-Allow-Methods'] = ALLOWED_METHODS;
      out['Access-Control-Allow-Headers'] = ALLOWED_HEADERS;
      out['Access-Control-Max-Age'] = '600';
      out['Access-Control-Expose-Headers'] = EXPOSED;
      out['Content-Length'] = '0';
    },
  };
}
