import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { checkApiKey, createKeyMatcher } from '../http/auth.js';
import { ApiError } from '../http/errors.js';
import { readJsonBody } from '../http/read-json-body.js';
import { requestSignal } from '../http/request-signal.js';
import type { OperationSpec } from '../openapi/spec.js';
import { formatIssues } from '../openapi/validate.js';
import type { Interceptor, OperationRequest, Reply } from '../operation.js';
import { createForwarder } from './forward.js';
import { exchangeOf } from './exchange.js';
import type { Pipeline, PipelineDeps, Target } from './pipeline-types.js';

const isPromise = <T>(value: T | Promise<T>): value is Promise<T> => value instanceof Promise;

/**
 * A checked request as the interceptors and modes take it: its fields, and
 * the signal of its client leaving, made on first ask (most requests never
 * wait on it). A class, not an object literal with a getter: V8 builds
 * such a literal about a thousand times slower, on every request.
 */
class CheckedRequest implements OperationRequest {
  readonly #res: ServerResponse;
  readonly headers: IncomingHttpHeaders;
  /** The target as sent, after /v1: Express rewrites req.url, never originalUrl. */
  readonly url: string;

  constructor(
    req: IncomingMessage,
    res: ServerResponse,
    readonly op: OperationSpec,
    readonly key: string,
    readonly path: Record<string, unknown>,
    readonly query: Record<string, unknown>,
    readonly body: unknown,
  ) {
    this.#res = res;
    this.headers = req.headers;
    this.url = ((req as { originalUrl?: string }).originalUrl ?? req.url ?? '').slice('/v1'.length);
  }

  get signal(): AbortSignal {
    return requestSignal(this.#res);
  }
}

/**
 * The /v1 pipeline, written once: Express's routes and the fast path both
 * hand it a matched request. Each stage is a branch of one chain (fastify's
 * `handleRequest`): an operation without a body skips the read, a request
 * that fails a stage goes straight to the error exit, and a request whose
 * every stage answers at once (a read of an open workspace) is answered in
 * the same turn of the event loop, without a promise.
 */
export function createPipeline(deps: PipelineDeps): Pipeline {
  const { config, runtime, modes, respond } = deps;
  const interceptors = deps.interceptors ?? [];
  const matcher = createKeyMatcher(config.apiKeys);
  // With open keys any well-formed token is accepted (bearerToken() enforces the form).
  const accepts = config.openKeys ? () => true : matcher;
  const authenticate = (req: IncomingMessage) => checkApiKey(req.headers, accepts);

  /** Interceptors from `from` on, then the mode: synchronous for as long as each step is. */
  function intercept(request: OperationRequest, from: number): Reply | Promise<Reply> {
    for (let i = from; i < interceptors.length; i++) {
      const result = (interceptors[i] as Interceptor)(request, runtime.mode);
      if (isPromise(result)) return result.then((reply) => reply ?? intercept(request, i + 1));
      if (result) return result;
    }
    return (modes[runtime.mode] ?? modes.stateful).handle(request);
  }

  /** Validation, interceptors and the mode: the reply to an authenticated request. */
  function answer(req: IncomingMessage, res: ServerResponse, { route, params, query }: Target, key: string, body: unknown): Reply | Promise<Reply> {
    const checked = route.validator;
    const path = checked.path(params);
    // A malformed identifier names no animal: the interface's answer for that is 404.
    if (!path.ok) throw ApiError.of('not_found', `No pet with id '${Object.values(params).join('/')}': ${formatIssues(path.issues)}`);
    const q = checked.query(query);
    if (!q.ok) throw ApiError.of('invalid_request', formatIssues(q.issues));
    const b = checked.body(body);
    if (!b.ok) throw ApiError.of('invalid_request', formatIssues(b.issues));
    return intercept(new CheckedRequest(req, res, route.op, key, path.value, q.value, b.value), 0);
  }

  const { forwarding, forward } = createForwarder({ ...deps, authenticate });

  function serve(req: IncomingMessage, res: ServerResponse, target: Target): void {
    if (forwarding()) return forward(req, res, target);
    const exchange = exchangeOf(res);
    if (exchange) exchange.op = target.route.op;
    const reply = (r: Reply) => respond.reply(req, res, target.route, r);
    const fail = (error: unknown) => respond.fail(req, res, error);
    try {
      // Pinned headers first, so that every answer, a 401 too, carries them.
      for (const [name, value] of target.route.pinned) res.setHeader(name, value);
      const key = authenticate(req);
      if (exchange) exchange.key = key;
      if (target.route.readsBody) {
        const capture = exchange && ((bytes: Buffer) => void (exchange.bytes = bytes));
        readJsonBody(req, config.bodyLimit, capture)
          .then(async (body) => {
            await deps.sync?.(key);
            return answer(req, res, target, key, body);
          })
          .then(reply, fail);
        return;
      }
      const synced = deps.sync?.(key);
      if (synced) {
        synced.then(() => answer(req, res, target, key, undefined)).then(reply, fail);
        return;
      }
      const answered = answer(req, res, target, key, undefined);
      if (isPromise(answered)) answered.then(reply, fail);
      else reply(answered);
    } catch (error) {
      fail(error);
    }
  }

  return { authenticate, serve, forwarding, forward };
}
