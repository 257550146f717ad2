import { ApiError } from '../kernel/errors.js';
import type { OperationSpec } from '../openapi/spec.js';
import { formatIssues } from '../openapi/validate.js';
import type { Interceptor, ModeHandler, OperationRequest, Reply, Runtime } from '../kernel/operation.js';
import type { Target } from './match.js';
import type { EngineHeaders, EngineRequest } from '../kernel/types.js';

export const isPromise = <T>(value: T | Promise<T>): value is Promise<T> => value instanceof Promise;

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
  ) {
    this.#request = request;
    this.headers = request.headers;
    this.url = request.url.slice('/v1'.length);
  }

  get signal(): AbortSignal | undefined {
    return this.#request.signal;
  }
}

export interface AnswerDeps {
  runtime: Runtime;
  interceptors?: readonly Interceptor[] | undefined;
}

/**
 * Validation, interceptors and the mode chosen for the request: the reply
 * to an authenticated request, synchronous for as long as each step is.
 */
export function createAnswer({ runtime, interceptors = [] }: AnswerDeps) {
  function intercept(request: OperationRequest, mode: ModeHandler, from: number): Reply | Promise<Reply> {
    for (let i = from; i < interceptors.length; i++) {
      const result = (interceptors[i] as Interceptor)(request, runtime.mode);
      if (isPromise(result)) return result.then((reply) => reply ?? intercept(request, mode, i + 1));
      if (result) return result;
    }
    return mode.handle(request);
  }

  return (request: EngineRequest, { route, params, query }: Target, key: string, body: unknown, mode: ModeHandler): Reply | Promise<Reply> => {
    const checked = route.validator;
    const path = checked.path(params);
    // A malformed identifier names no animal: the interface's answer for that is 404.
    if (!path.ok) throw ApiError.of('not_found', `No pet with id '${Object.values(params).join('/')}': ${formatIssues(path.issues)}`);
    const q = checked.query(query);
    if (!q.ok) throw ApiError.of('invalid_request', formatIssues(q.issues));
    const b = checked.body(body);
    if (!b.ok) throw ApiError.of('invalid_request', formatIssues(b.issues));
    return intercept(new CheckedRequest(request, route.op, key, path.value, q.value, b.value), mode, 0);
  };
}
