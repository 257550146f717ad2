import type { Reply } from '../kernel/operation.js';
import { isPromise } from './answer.js';
import type { OutHeaders } from '../kernel/types.js';
import { errorAnswer, jsonInto, type Unexpected } from '../kernel/error-exit.js';
import type { Exchange } from './exchange.js';
import type { Target } from './match.js';

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
export function createResponder(onUnexpected: Unexpected | undefined) {
  const respond = (ex: Exchange, status: number, value: unknown, text: string): Exchange => {
    ex.value = value;
    ex.text = text;
    ex.response = { status, headers: ex.out, body: ex.head ? undefined : text };
    return ex;
  };
  const fail = (ex: Exchange, error: unknown): Exchange => {
    const { status, body, text } = errorAnswer(error, ex.out, ex.request, onUnexpected);
    return respond(ex, status, body, text);
  };
  const reply = (ex: Exchange, { route }: Target, r: Reply): Exchange => {
    const { out } = ex;
    const fixed = route.fixedByStatus.get(r.status);
    if (fixed) for (const [name, value] of fixed) out[name] = value;
    if (r.headers) for (const name in r.headers) out[name] = r.headers[name] as string;
    if (r.checked === true) ex.checked = true;
    return respond(ex, r.status, r.body, jsonInto(out, r.body, r.json, r.byteLength));
  };
  const answered = (ex: Exchange, target: Target, r: Reply | Promise<Reply>): Exchange | Promise<Exchange> =>
    isPromise(r) ? r.then((value) => reply(ex, target, value)).catch((error: unknown) => fail(ex, error)) : reply(ex, target, r);

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
