import type { Config } from '../config/load.js';
import { checkApiKey, createKeyMatcher } from '../http/auth.js';
import { ApiError } from '../http/errors.js';
import type { Spec } from '../openapi/spec.js';
import type { Validators } from '../openapi/validate.js';
import type { AnsweredRequest, V1Exchange } from './operation.js';
import { createAnswer, type AnswerDeps } from './answer.js';
import { createResponder, type PassedAnswer } from './respond.js';
import { createCors } from './cors.js';
import type { Unexpected } from './error-exit.js';
import { Exchange } from './exchange.js';
import { checkJsonMediaType, parseJsonBody } from './json-body.js';
import { createV1Matcher, splitUrl, underV1, type Miss, type Target } from './match.js';
import { compileRoutes } from './routes.js';
import type { EngineHeaders, EngineRequest, EngineResponse } from './types.js';

export type { PassedAnswer };

export interface V1EngineDeps extends AnswerDeps {
  config: Pick<Config, 'apiKeys' | 'openKeys' | 'corsOrigins'>;
  spec: Spec;
  validators: Validators;
  /** Brings shared state (mode, faults, the key's pets) up to date after auth, before the request is answered; absent when nothing is shared. */
  sync?: ((key: string) => void | Promise<void>) | undefined;
  /** Hears unexpected (500) failures, with the error; the client sees none of it. */
  onUnexpected?: Unexpected | undefined;
  /** Hears what each /v1 request became, once, when its answer is made (journal, metrics, request log). */
  onResponse?: ((exchange: V1Exchange) => void) | undefined;
  /** Hears each answered CORS preflight: not an exchange of the interface, so not journaled. */
  onAnswered?: ((answered: AnsweredRequest) => void) | undefined;
}

/** The /v1 engine: one function of plain values, and its stages for a transport that reads the body itself. */
export interface V1Engine {
  /** Answers any request whose path is `/v1` or under it. Synchronous whenever every stage is. */
  handle(request: EngineRequest): EngineResponse | Promise<EngineResponse>;
  /** CORS: a preflight's answer, or the request's exchange with the operation it matched. */
  begin(request: EngineRequest): EngineResponse | Exchange;
  /** Pinned headers, auth and (when a body comes) its media type: a refusal, or undefined when the body may be read. */
  admit(ex: Exchange, bodyComing: boolean): EngineResponse | undefined;
  /** The rest, once the body (if any) is read: body, validation, interceptors, mode, the answer. */
  complete(ex: Exchange, body: Uint8Array | undefined): EngineResponse | Promise<EngineResponse>;
  /** The one error exit. */
  fail(ex: Exchange, error: unknown): EngineResponse;
  /** An upstream's answer as it came, reported (proxy mode). */
  pass(ex: Exchange, answer: PassedAnswer): EngineResponse;
  /** The API key of a request; throws the 401 the interface prescribes. */
  authenticate(headers: EngineHeaders): string;
}

/**
 * The /v1 pipeline without a transport: CORS -> match -> pinned headers ->
 * auth -> body -> validation -> interceptors -> mode -> the answer, every
 * failure to the one error exit, and what the request became reported once
 * to `onResponse`. A read of an open workspace is answered without a promise.
 */
export function createV1Engine(deps: V1EngineDeps): V1Engine {
  const { config, onAnswered } = deps;
  const cors = createCors(config);
  const match = createV1Matcher(compileRoutes(deps.spec, deps.validators));
  const answer = createAnswer(deps);
  const matcher = createKeyMatcher(config.apiKeys);
  // With open keys any well-formed token is accepted (bearerToken() enforces the form).
  const accepts = config.openKeys ? () => true : matcher;
  const authenticate = (headers: EngineHeaders) => checkApiKey(headers, accepts);

  const { fail, answered, pass } = createResponder(deps);

  function begin(request: EngineRequest): EngineResponse | Exchange {
    const ex = new Exchange(request);
    if (request.method === 'OPTIONS') return preflight(ex);
    cors.actual(request.headers, ex.out);
    const { path, query } = splitUrl(request.url);
    if (underV1(path)) ex.target = match(request.method, path, query);
    return ex;
  }
  function preflight(ex: Exchange): EngineResponse {
    cors.preflight(ex.request.headers, ex.out);
    const { method, headers, url } = ex.request;
    onAnswered?.({ method, headers, url, status: 204, durationMs: performance.now() - ex.start, requestId: ex.requestId, operation: undefined });
    return { status: 204, headers: ex.out, body: undefined };
  }

  function admit(ex: Exchange, bodyComing: boolean): EngineResponse | undefined {
    const { target, request } = ex;
    try {
      // Outside /v1 no key is asked: the answer is the unknown path's.
      if (!target) throw outside(request);
      if (target.route) for (const [name, value] of target.route.pinned) ex.out[name] = value;
      ex.key = authenticate(request.headers);
      if (!target.route) throw missed(target, request);
      if (bodyComing && target.route.readsBody) checkJsonMediaType(request.headers['content-type'] as string | undefined);
      return undefined;
    } catch (error) {
      return fail(ex, error);
    }
  }

  function complete(ex: Exchange, bytes: Uint8Array | undefined): EngineResponse | Promise<EngineResponse> {
    const target = ex.target as Target;
    const key = ex.key as string;
    try {
      let body: unknown;
      if (target.route.readsBody && bytes !== undefined) {
        ex.bytes = bytes;
        body = parseJsonBody(bytes);
      }
      const synced = deps.sync?.(key);
      if (synced) return synced.then(() => answered(ex, target, answer(ex.request, target, key, body))).catch((error: unknown) => fail(ex, error));
      return answered(ex, target, answer(ex.request, target, key, body));
    } catch (error) {
      return fail(ex, error);
    }
  }

  function handle(request: EngineRequest): EngineResponse | Promise<EngineResponse> {
    const ex = begin(request);
    if (!(ex instanceof Exchange)) return ex;
    return admit(ex, request.body !== undefined) ?? complete(ex, request.body);
  }

  return { handle, begin, admit, complete, fail, pass, authenticate };
}

/** A path outside /v1: the engine serves none. */
const outside = ({ method, url }: EngineRequest) =>
  ApiError.of('not_found', `No route ${method} ${splitUrl(url).path}. The Pet Store interface is served under /v1.`);

/** The refusal of a /v1 request no operation takes, given after auth (every endpoint requires a key). */
function missed(miss: Miss, { method, url }: EngineRequest): ApiError {
  const sent = url.split('?')[0] as string;
  if (miss.allow)
    return ApiError.of('method_not_allowed', `${method} is not allowed on ${miss.base}${miss.rest}; allowed: ${miss.allow}.`, { Allow: miss.allow });
  if (miss.store)
    return ApiError.of(
      'not_implemented',
      `${method} ${sent} is part of the store area, whose methods, parameters and responses the interface does not describe.`,
    );
  return ApiError.of('not_found', `No operation at ${method} ${sent}.`);
}
