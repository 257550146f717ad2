import { createControlHandlers } from './handlers.js';
import type { ControlCall, ControlDeps } from './handler-types.js';
import { createControlChecks } from './request-checks.js';
import { CONTROL_BASE, type ControlOperationId, type ControlRoute } from './routes.js';
import { ApiError } from '../kernel/errors.js';
import { echo } from '../kernel/echo.js';
import type { Spec } from '../openapi/spec.js';
import { parseJsonBody } from '../kernel/json.js';
import { jsonBytes } from '../kernel/json.js';
import type { EngineRequest, EngineResponse } from '../kernel/types.js';
import { answerResponse, failureResponse } from './answers.js';
import { createControlCors, type CorsOutcome } from './cors.js';
import { adminOnly, adminOrApiKey, metricsTokenOnly, type CredentialCheck } from './credentials.js';
import { decodeParams, matchRoot, matchUnder, pathUnder, queryOf, type MatchedRoute } from './match.js';
import { createStreamSlots } from './stream-slots.js';

export interface ControlPlaneOptions extends ControlDeps {
  /** spec/sandbox-control.yaml, checked against the route table (`loadControlSpec`): the engine reads no file. */
  controlSpec: Spec;
  /** spec/openapi.yaml, whose Pet schema the control spec refers to. */
  interfaceSpec: Spec;
  /** Brings shared state (the mode, faults) up to date before an operation; absent when nothing is shared. */
  sync?: (key?: string) => void | Promise<void>;
  /** Called for each unexpected failure (answered as a bare 500), with the error; the client sees none of it. */
  onUnexpected?: (error: unknown, request: EngineRequest) => void;
  /** Aborted when the engine closes: every live stream ends on it. */
  closing?: AbortSignal | undefined;
}

/** The control plane's answer, and which operation gave it, for the request log and the metrics. */
export interface ControlPlaneResponse extends EngineResponse {
  /** The operation that ran: undefined when none did (a refused credential or body, an unknown path, a preflight). */
  operation: ControlOperationId | undefined;
}

/** The control plane: the operations of spec/sandbox-control.yaml and the probes at the root. */
export interface ControlPlane {
  /**
   * Answers a request of the control plane completely (CORS, credentials,
   * body, checks, the operation, its answer or an Error body), or returns
   * undefined for a request it does not own: one neither under
   * `/__sandbox` nor an operation at the root (`GET /livez`, `/readyz`,
   * `/metrics`). Never rejects. The response says which operation answered
   * (`operation`), for the request log and the metrics.
   */
  handle(request: EngineRequest, requestId: string): Promise<ControlPlaneResponse> | undefined;
}

/** Fixture sets and exports can be large: 10,000 pets and more. A transport refuses a larger body as it reads it. */
export const CONTROL_BODY_LIMIT = 64 * 1024 * 1024;

/** What a request is, before anything of it runs. */
interface Resolved {
  path: string;
  search: string;
  matched: MatchedRoute | undefined;
  cors: CorsOutcome;
  /** Undefined for an operation that needs no credential. */
  guard: CredentialCheck | undefined;
}

const NO_CORS: CorsOutcome = { headers: {}, preflight: false };

/**
 * JSON bodies of POST and PUT, read as /v1 reads them (media type first,
 * UTF-8, no byte order mark, nesting, an int64 past 2^53 kept exactly: a
 * fixture's categoryId), at most CONTROL_BODY_LIMIT bytes; GET and DELETE
 * never read theirs. Bytes at hand that are empty and untyped are no body.
 */
async function bodyOf(request: EngineRequest): Promise<unknown> {
  const { method, body, headers } = request;
  if ((method !== 'POST' && method !== 'PUT') || body === undefined) return undefined;
  if (body instanceof Uint8Array && body.length === 0 && headers['content-type'] === undefined) return undefined;
  return parseJsonBody(await jsonBytes(request, CONTROL_BODY_LIMIT));
}

/** How each request is told apart: under `/__sandbox` (its CORS and credentials), an operation at the root, or not the engine's. */
function createResolver(options: ControlPlaneOptions): (request: EngineRequest) => Resolved | undefined {
  const { config } = options;
  const cors = createControlCors(config.controlCorsOrigins);
  const admin = adminOnly(config.adminToken, config.apiKeys);
  const adminOrKey = adminOrApiKey(config);
  const metrics = metricsTokenOnly(config.metricsToken);
  const guardOf = (route: ControlRoute) =>
    !route.admin ? undefined
    : route.apiKey ? adminOrKey
    : admin;
  return (request) => {
    const mark = request.url.indexOf('?');
    const path = mark === -1 ? request.url : request.url.slice(0, mark);
    const search = mark === -1 ? '' : request.url.slice(mark + 1);
    const under = pathUnder(path);
    if (under === undefined) {
      const matched = matchRoot(request.method, path);
      return matched && { path, search, matched, cors: NO_CORS, guard: matched.route.metricsToken ? metrics : undefined };
    }
    const matched = matchUnder(request.method, under);
    // An unknown path or method is asked for the admin token first: it tells nothing of what exists to others.
    return { path: under, search, matched, cors: cors(request.method, request.headers), guard: matched ? guardOf(matched.route) : admin };
  };
}

/**
 * The control plane's engine, transport-free: the operations of
 * spec/sandbox-control.yaml from their route table (control/routes.ts),
 * each request checked against its operation in the spec, then handed to
 * its handler, which acts on the sandbox's state. The admin token opens it
 * (an API key only the operations the table marks `apiKey`), and it acts on
 * the workspace of the API key in `X-Sandbox-Key`; the probes and the
 * metrics are served at the root.
 */
export function createControlPlane(options: ControlPlaneOptions): ControlPlane {
  const spec = options.controlSpec;
  const check = createControlChecks(spec, [options.interfaceSpec]);
  const handlers = createControlHandlers(options);
  const resolve = createResolver(options);
  // As many live tails per client as the server lets one client hold connections.
  const slots = createStreamSlots(options.config.maxConnectionsPerClient);

  /** The operation run on a request whose credential has passed: checked, synced, answered. */
  const run = async (request: EngineRequest, { operationId, route, rawParams }: MatchedRoute, search: string, body: unknown, apiKey: string | undefined) => {
    const params = decodeParams(rawParams);
    const checked = check(operationId, { headers: request.headers, query: queryOf(search), params, body });
    // An API key that opened the operation names the workspace itself.
    if (apiKey !== undefined) checked.key = apiKey;
    await options.sync?.(checked.key);
    const accept = request.headers.accept;
    const call = { ...checked, byApiKey: apiKey !== undefined, accept: Array.isArray(accept) ? accept.join(', ') : accept, signal: request.signal };
    // Checked against the operation in the spec, so it has the types generated from it.
    const answer: unknown = await (handlers[operationId] as (call: ControlCall<typeof operationId>) => unknown)(call as never);
    const onUnexpected = (error: unknown) => options.onUnexpected?.(error, request);
    const takeSlot = () => slots.take(request.peer);
    const { closing } = options;
    return answerResponse(route.status, answer, { head: request.method === 'HEAD', signal: request.signal, closing, takeSlot, onUnexpected });
  };

  const respond = async (request: EngineRequest, resolved: Resolved, requestId: string): Promise<ControlPlaneResponse> => {
    const shared = { ...resolved.cors.headers, 'X-Request-Id': requestId };
    if (resolved.cors.preflight) return { status: 204, headers: { ...shared, 'Content-Length': '0' }, body: undefined, operation: undefined };
    let operation: ControlOperationId | undefined;
    let response: EngineResponse;
    try {
      const apiKey = resolved.guard?.(request.headers);
      const { matched } = resolved;
      if (!matched) throw ApiError.of('not_found', `No control operation ${request.method} ${echo(`${CONTROL_BASE}${resolved.path}`, '')}.`);
      const body = await bodyOf(request);
      operation = matched.operationId;
      response = await run(request, matched, resolved.search, body, apiKey);
    } catch (error) {
      response = failureResponse(error, (e) => options.onUnexpected?.(e, request));
    }
    return { ...response, headers: { ...shared, ...response.headers }, operation };
  };

  return {
    handle(request, requestId) {
      const resolved = resolve(request);
      return resolved && respond(request, resolved, requestId);
    },
  };
}
