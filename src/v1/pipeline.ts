import type { Config, Mode } from '../config/load.js';
import { bearerToken, checkApiKey, createKeyMatcher } from '../kernel/auth.js';
import { ApiError } from '../kernel/errors.js';
import type { PassThroughMode } from '../modes/proxy/types.js';
import type { OperationSpec, Spec } from '../openapi/spec.js';
import type { Validators } from '../openapi/validate.js';
import { createResponder, Exchange } from './exchange.js';
import type { Unexpected } from '../kernel/error-exit.js';
import { jsonBytes, parseJsonBody } from '../kernel/json.js';
import { createV1Matcher, type Miss, splitUrl, type Target } from './match.js';
import type { Access, ErrorShape, Interceptor, ModeHandler, OperationRequest, Reply, Runtime } from '../kernel/operation.js';
import { compileRoutes } from './routes.js';
import type { EngineHeaders, EngineRequest, OutHeaders } from '../kernel/types.js';
import { createForwarding } from './forward.js';
import { formatIssues } from '../kernel/issues.js';
import { echo } from '../kernel/echo.js';

export interface V1PipelineDeps extends AnswerDeps {
  config: Pick<Config, 'apiKeys' | 'openKeys' | 'bodyLimit' | 'upstreamKey'>;
  /** The path the API is served under. Default `/v1`. */
  base?: string | undefined;
  /** Who may call each operation, and with which key (the spec's security). Default the Pet Store's: a bearer API key, on every operation. */
  access?: Access | undefined;
  /** An Error body in the shape the spec documents for the operation and status. Default the sandbox's Error as it is. */
  shapeError?: ErrorShape | undefined;
  /** Headers every answer of an operation carries beyond those its spec pins (a deprecated operation's `Deprecation` and `Sunset`). */
  headersOf?: ((op: OperationSpec) => Record<string, string>) | undefined;
  spec: Spec;
  validators: Validators;
  /** A handler for each mode that answers from the sandbox; a mode with none is refused (501), never answered by another. */
  modes: Partial<Record<Mode, ModeHandler>>;
  /** Proxy mode: how a request is passed on to the upstream; absent where nothing can forward (a browser). */
  passThrough?: PassThroughMode | undefined;
  /** Brings shared state (mode, faults, the key's pets) up to date after auth, before the request is answered; absent when nothing is shared. */
  sync?: ((key: string) => void | Promise<void>) | undefined;
  /** Hears unexpected (500) failures, with the error; the client sees none of it. */
  onUnexpected?: Unexpected | undefined;
}

/** The /v1 pipeline: a request in, its exchange out, answered; synchronous whenever every stage is. */
export interface V1Pipeline {
  /** Answers an actual request (not a preflight) whose path is `/v1` or under it; the exchange holds the answer. */
  handle(request: EngineRequest, out: OutHeaders): Exchange | Promise<Exchange>;
}

/** The Pet Store's API keys: the request's bearer key when the sandbox accepts it (`accepted`, no refusal), or the interface's 401 (`authenticate`). */
function bearerAccess(config: Pick<Config, 'apiKeys' | 'openKeys'>): Access {
  // With open keys any well-formed token is accepted (bearerToken() enforces the form).
  const accepts = config.openKeys ? () => true : createKeyMatcher(config.apiKeys);
  return {
    accepted(headers: EngineHeaders): string | undefined {
      const token = bearerToken(headers);
      return token !== undefined && accepts(token) ? token : undefined;
    },
    authenticate: (headers: EngineHeaders) => checkApiKey(headers, accepts),
  };
}

/**
 * The /v1 pipeline without a transport: CORS -> match -> shared state
 * (for a key it accepts) -> mode -> pinned headers -> auth -> body (its
 * media type before a byte is read, then at most `--body-limit` bytes) ->
 * validation -> interceptors -> the mode's answer, every failure to the one
 * error exit. In proxy mode the request is passed on instead, after the
 * shared state (`v1-proxy.ts`). A read of an open workspace is answered
 * without a promise.
 */
export function createV1Pipeline(deps: V1PipelineDeps): V1Pipeline {
  const { config, runtime, modes, base = '/v1' } = deps;
  const match = createV1Matcher(compileRoutes(deps.spec, deps.validators, deps.headersOf), base.length, deps.access === undefined);
  const answer = createAnswer(deps, base);
  const access = deps.access ?? bearerAccess(config);
  const { fail, answered, pass } = createResponder(deps.onUnexpected, deps.shapeError);
  const forward = createForwarding({ ...deps, authenticate: (headers) => access.authenticate(headers, undefined, {}), fail, pass });

  /** The rest, once the body (if any) is read: its value, then the answer of the request's mode. */
  function complete(ex: Exchange, target: Target, key: string, mode: ModeHandler, bytes: Uint8Array | undefined): Exchange | Promise<Exchange> {
    try {
      let body: unknown;
      if (bytes !== undefined) {
        ex.bytes = bytes;
        body = parseJsonBody(bytes);
      }
      return answered(ex, target, answer(ex.request, target, key, body, mode));
    } catch (error) {
      return fail(ex, error);
    }
  }

  /** Once shared state is current: the mode read (the one place it is), then proxy's branch or auth, route, body and the mode's answer. */
  function route(ex: Exchange, key: string | undefined): Exchange | Promise<Exchange> {
    const chosen = runtime.mode;
    if (chosen === 'proxy') return forward(ex, key);
    const { request } = ex;
    const target = ex.target as Target | Miss;
    try {
      if (target.route) for (const [name, value] of target.route.pinned) ex.out[name] = value;
      ex.key = key ?? access.authenticate(request.headers, target.route?.op, target.route ? target.query : {});
      if (!target.route) throw missed(target, request);
      const mode = modes[chosen];
      if (!mode) throw ApiError.of('not_implemented', `Mode '${chosen}' cannot answer in this sandbox.`);
      if (!target.route.readsBody || request.body === undefined) return complete(ex, target, ex.key, mode, undefined);
      const bytes = jsonBytes(request, config.bodyLimit, target.route.op.requestBody?.mediaTypes);
      if (!(bytes instanceof Promise)) return complete(ex, target, ex.key, mode, bytes);
      return bytes.then(
        (read) => complete(ex, target, ex.key as string, mode, read),
        (error: unknown) => fail(ex, error),
      );
    } catch (error) {
      return fail(ex, error);
    }
  }

  function handle(request: EngineRequest, out: OutHeaders): Exchange | Promise<Exchange> {
    const ex = new Exchange(request, out);
    const { path, query } = splitUrl(request.url);
    const target = (ex.target = match(request.method, path, query));
    const key = access.accepted(request.headers, target.route?.op, target.route ? target.query : undefined);
    // Shared state (the mode, faults, the key's pets) is brought up to date for a key the sandbox accepts; a request
    // without one reads no workspace, and is answered in the mode as last known (refused, or passed on in proxy mode).
    const synced = key === undefined ? undefined : deps.sync?.(key);
    if (!synced) return route(ex, key);
    return synced.then(
      () => route(ex, key),
      (error: unknown) => fail(ex, error),
    );
  }

  return { handle };
}

/** The refusal of a /v1 request no operation takes, given after auth (every endpoint requires a key). */
function missed(miss: Miss, { method, url }: EngineRequest): ApiError {
  const sent = url.split('?')[0] as string;
  if (miss.allow)
    return ApiError.of('method_not_allowed', `${method} is not allowed on ${echo(`${miss.base}${miss.rest}`, '')}; allowed: ${miss.allow}.`, {
      Allow: miss.allow,
    });
  if (miss.store)
    return ApiError.of(
      'not_implemented',
      `${method} ${echo(sent, '')} is part of the store area, whose methods, parameters and responses the interface does not describe.`,
    );
  return ApiError.of('not_found', `No operation at ${method} ${echo(sent, '')}.`);
}

/**
 * A checked request as the interceptors and modes take it: its fields, and
 * the signal of its client leaving, asked of the transport only when a step
 * waits on it (most requests never do). A class, not an object literal with
 * a getter: V8 builds such a literal about a thousand times slower.
 */
class CheckedRequest implements OperationRequest {
  readonly #request: EngineRequest;
  readonly headers: EngineHeaders;
  /** The target as sent, after /v1. */
  readonly url: string;

  constructor(
    request: EngineRequest,
    readonly op: OperationSpec,
    readonly key: string,
    readonly path: Record<string, unknown>,
    readonly query: Record<string, unknown>,
    readonly body: unknown,
    readonly closing: AbortSignal | undefined,
    base: number,
  ) {
    this.#request = request;
    this.headers = request.headers;
    this.url = request.url.slice(base);
  }

  get signal(): AbortSignal | undefined {
    return this.#request.signal;
  }
}

export interface AnswerDeps {
  runtime: Runtime;
  interceptors?: readonly Interceptor[] | undefined;
  /** Aborted when the engine closes: handed to each request, for the waits without an end of their own. */
  closing?: AbortSignal | undefined;
}

/**
 * Validation, interceptors and the mode chosen for the request: the reply
 * to an authenticated request, synchronous for as long as each step is.
 */
function createAnswer({ runtime, interceptors = [], closing }: AnswerDeps, base: string) {
  function intercept(request: OperationRequest, mode: ModeHandler, from: number): Reply | Promise<Reply> {
    for (let i = from; i < interceptors.length; i++) {
      const step = interceptors[i] as Interceptor;
      if (step.onHeader !== undefined && request.headers[step.onHeader] === undefined) continue;
      const result = step(request, runtime.mode);
      if (result instanceof Promise) return result.then((reply) => reply ?? intercept(request, mode, i + 1));
      if (result) return result;
    }
    return mode.handle(request);
  }

  return (request: EngineRequest, { route, params, query }: Target, key: string, body: unknown, mode: ModeHandler): Reply | Promise<Reply> => {
    const checked = route.validator;
    const path = checked.path(params);
    // A malformed identifier names no animal: the interface's answer for that is 404.
    if (!path.ok) throw ApiError.of('not_found', `No ${route.noun} with id ${echo(Object.values(params).join('/'))}: ${formatIssues(path.issues)}`);
    const q = checked.query(query);
    if (!q.ok) throw ApiError.of('invalid_request', formatIssues(q.issues));
    const b = checked.body(body);
    if (!b.ok) throw ApiError.of('invalid_request', formatIssues(b.issues));
    return intercept(new CheckedRequest(request, route.op, key, path.value, q.value, b.value, closing, base.length), mode, 0);
  };
}
