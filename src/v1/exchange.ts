import type { OperationSpec } from '../openapi/spec.js';
import type { V1Exchange, Violation } from '../kernel/operation.js';
import type { Miss, Target } from './match.js';
import { requestIdOf } from '../kernel/request-id.js';
import type { EngineRequest, EngineResponse, OutHeaders } from '../kernel/types.js';

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
  /** The answer's headers so far: `X-Request-Id` first, CORS, the operation's pinned ones. */
  readonly out: OutHeaders;
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

  constructor(readonly request: EngineRequest) {
    this.requestId = requestIdOf(request.headers);
    this.out = { 'X-Request-Id': this.requestId };
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
