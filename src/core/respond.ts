import type { Reply, V1Exchange } from './operation.js';
import { isPromise } from './answer.js';
import type { OutHeaders } from './cors.js';
import { errorAnswer, jsonInto, type Unexpected } from './error-exit.js';
import type { Exchange } from './exchange.js';
import { exchangeValue } from './exchange.js';
import type { Target } from './match.js';
import type { EngineResponse } from './types.js';

/** An upstream's answer, passed as it came (proxy mode): the Node adapter's branch hands it back to be reported. */
export interface PassedAnswer {
  status: number;
  headers: [string, string | string[]][];
  body: Uint8Array;
  value: unknown;
  text: string | undefined;
  violations: V1Exchange['violations'] & object;
}

export interface ResponderDeps {
  onUnexpected?: Unexpected | undefined;
  onResponse?: ((exchange: V1Exchange) => void) | undefined;
}

/**
 * The way out of the engine, for answers and errors alike: the answer as
 * plain values (JSON text with its exact `Content-Type` and length, the
 * spec's fixed headers for its status), the one error exit, and the report
 * of what the request became, once.
 */
export function createResponder({ onUnexpected, onResponse }: ResponderDeps) {
  /** Reports an exchange once; a listener that throws is logged, never answered a second time. */
  const report = (ex: Exchange, status: number, body: unknown, text: string | undefined, passed = false, checked = false) => {
    try {
      onResponse?.(exchangeValue(ex, status, body, text, passed, checked));
    } catch (error) {
      onUnexpected?.(error, ex.request);
    }
  };
  const respond = (ex: Exchange, status: number, body: unknown, text: string, checked = false): EngineResponse => {
    report(ex, status, body, text, false, checked);
    return { status, headers: ex.out, body: ex.head ? undefined : text };
  };
  const fail = (ex: Exchange, error: unknown): EngineResponse => {
    const { status, body, text } = errorAnswer(error, ex.out, ex.request, onUnexpected);
    return respond(ex, status, body, text);
  };
  const reply = (ex: Exchange, { route }: Target, r: Reply): EngineResponse => {
    const { out } = ex;
    const fixed = route.fixedByStatus.get(r.status);
    if (fixed) for (const [name, value] of fixed) out[name] = value;
    if (r.headers) for (const name in r.headers) out[name] = r.headers[name] as string;
    return respond(ex, r.status, r.body, jsonInto(out, r.body, r.json, r.byteLength), r.checked === true);
  };
  const answered = (ex: Exchange, target: Target, r: Reply | Promise<Reply>) =>
    isPromise(r) ? r.then((value) => reply(ex, target, value)).catch((error: unknown) => fail(ex, error)) : reply(ex, target, r);

  function pass(ex: Exchange, passed: PassedAnswer): EngineResponse {
    // Nothing of the sandbox's own (CORS, X-Request-Id) is added to an upstream's answer.
    const out: OutHeaders = {};
    for (const [name, value] of passed.headers) out[name] = value;
    ex.violations = passed.violations;
    if (!ex.head) out['Content-Length'] = passed.body.length;
    report(ex, passed.status, passed.value, passed.text, true);
    return { status: passed.status, headers: out, body: ex.head ? undefined : passed.body };
  }

  return { fail, answered, pass };
}
