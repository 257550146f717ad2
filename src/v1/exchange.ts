import type { OperationSpec } from '../openapi/spec.js';
import type { ErrorShape, Reply, V1Exchange, Violation } from '../kernel/operation.js';
import type { Miss, Target } from './match.js';
import type { EngineRequest, EngineResponse, OutHeaders } from '../kernel/types.js';
import { errorAnswer, jsonInto, type Unexpected } from '../kernel/error-exit.js';

/**
 * A /v1 request on its way through the engine: what it has become so far,
 * the headers of its answer in the order they are sent, and, once made, the
 * answer itself. The /v1 pipeline hands it back to the dispatcher, which
 * reports it once, as a plain `V1Exchange`. A class: V8 makes these
 * fastest, and one is made per request.
 */
export class Exchange {
  readonly start = performance.now();
  readonly requestId: string;
  /** The operation the request matched, or what it missed. */
  target: Target | Miss | undefined = undefined;
  key: string | undefined = undefined;
  /** The request body's bytes as read (a Content-Encoding undone; as sent, in proxy mode). */
  bytes: Uint8Array | undefined = undefined;
  /** In proxy mode, what the request broke of the spec: reported with an answer of the sandbox's own too (a 502). */
  violations: Violation[] | undefined = undefined;
  /** The answer, once made. */
  response: EngineResponse | undefined = undefined;
  /** The answer's body as a value (before serialization), and its JSON text. */
  value: unknown = undefined;
  text: string | undefined = undefined;
  /** Whether the answer is an upstream's, passed as it came (proxy mode). */
  passed = false;
  /** Whether the answer's body was built from values already checked against the spec (`Reply.checked`). */
  checked = false;

  /** `out`: the answer's headers so far, as the dispatcher gives them (`X-Request-Id` first, CORS); the operation's pinned ones follow. */
  constructor(
    readonly request: EngineRequest,
    readonly out: OutHeaders,
  ) {
    this.requestId = out['X-Request-Id'] as string;
  }

  get op(): OperationSpec | undefined {
    return this.target?.route?.op;
  }

  /** Whether the answer carries no body: a HEAD request's answer is a GET's without it. */
  get head(): boolean {
    return this.request.method === 'HEAD';
  }
}

/** The plain value an exchange is reported as, once its answer is made. */
export function exchangeValue(ex: Exchange): V1Exchange {
  const { request } = ex;
  const value: V1Exchange = {
    method: request.method,
    headers: request.headers,
    url: request.url,
    requestId: ex.requestId,
    requestBytes: ex.bytes,
    op: ex.op,
    key: ex.key,
    status: (ex.response as EngineResponse).status,
    body: ex.value,
    text: ex.text,
    durationMs: performance.now() - ex.start,
  };
  // Set only when there is something to say, as before; assigned, not spread: a spread object was a new one per request.
  if (ex.violations) value.violations = ex.violations;
  if (ex.passed) value.passed = true;
  if (ex.checked) value.checked = true;
  return value;
}

/** An upstream's answer, passed as it came (proxy mode). */
export interface PassedAnswer {
  status: number;
  headers: [string, string | string[]][];
  body: Uint8Array;
  value: unknown;
  text: string | undefined;
  violations: NonNullable<Exchange['violations']>;
}

/**
 * The way out of the /v1 pipeline, for answers and errors alike: the answer
 * as plain values (JSON text with its exact `Content-Type` and length, the
 * spec's fixed headers for its status) set on the exchange, and the one
 * error exit. Each returns the exchange, answered; the dispatcher reports it.
 */
export function createResponder(onUnexpected: Unexpected | undefined, shape?: ErrorShape) {
  const respond = (ex: Exchange, status: number, value: unknown, text: string): Exchange => {
    ex.value = value;
    ex.text = text;
    ex.response = { status, headers: ex.out, body: ex.head ? undefined : text };
    return ex;
  };
  const fail = (ex: Exchange, error: unknown): Exchange => {
    const { status, body, text } = errorAnswer(error, ex.out, ex.request, onUnexpected);
    if (!shape) return respond(ex, status, body, text);
    const shaped = shape(ex.op, body);
    return respond(ex, status, shaped, jsonInto(ex.out, shaped));
  };
  const reply = (ex: Exchange, { route }: Target, r: Reply): Exchange => {
    const { out } = ex;
    const fixed = route.fixedByStatus.get(r.status);
    if (fixed) for (const [name, value] of fixed) out[name] = value;
    if (r.headers) for (const name in r.headers) out[name] = r.headers[name] as string;
    if (r.checked === true) ex.checked = true;
    // No body at all (a 204): no Content-Type either.
    if (r.body === undefined && r.json === undefined) {
      ex.response = { status: r.status, headers: out, body: undefined };
      return ex;
    }
    return respond(ex, r.status, r.body, jsonInto(out, r.body, r.json, r.byteLength));
  };
  const answered = (ex: Exchange, target: Target, r: Reply | Promise<Reply>): Exchange | Promise<Exchange> =>
    r instanceof Promise ? r.then((value) => reply(ex, target, value)).catch((error: unknown) => fail(ex, error)) : reply(ex, target, r);

  function pass(ex: Exchange, passed: PassedAnswer): Exchange {
    // Nothing of the sandbox's own (CORS, X-Request-Id) is added to an upstream's answer.
    const out: OutHeaders = {};
    for (const [name, value] of passed.headers) out[name] = value;
    ex.violations = passed.violations;
    ex.passed = true;
    ex.value = passed.value;
    ex.text = passed.text;
    if (!ex.head) out['Content-Length'] = passed.body.length;
    ex.response = { status: passed.status, headers: out, body: ex.head ? undefined : passed.body };
    return ex;
  }

  return { fail, answered, pass };
}
