/**
 * Validates every real response against spec/openapi.yaml after Dredd's own
 * checks (status and exact Content-Type), with the one spec checker, and
 * fails the transaction with the exact problems. Kept apart from hooks.ts
 * so a run can leave it out and show what Dredd alone would miss.
 */
import hooks, { type Transaction } from 'hooks';
import { createSpecChecker, type SpecChecker } from '../spec-check.js';
import { readSettings } from './settings.js';

let checker: SpecChecker | undefined;

// Without a schema, Dredd compares the body with the spec's first example:
// every key the example has becomes required, position by position in an
// array. That fails valid answers (the `mixed` example's second pet has a
// `status`, which Pet does not require) and misses wrong types. The body is
// judged against the schema below instead.
hooks.beforeEachValidation((t) => {
  delete t.expected.body;
  delete t.expected.bodySchema;
});

/** Problems of the transaction's real response, each named by its operation and status. */
async function problemsOf(t: Transaction, real: NonNullable<Transaction['real']>): Promise<string[]> {
  checker ??= createSpecChecker(readSettings().spec);
  const status = Number(real.statusCode);
  const op = await checker.find(t.request.method, t.request.uri);
  const problems = await checker.problems(op, { status, headers: real.headers, text: real.body });
  const name = op ? `${op.operationId} ${status}` : `${t.request.method} ${t.request.uri}`;
  return problems.map((p) => `${name}: ${p}`);
}

/**
 * `t.fail` is only reported when Dredd's own validation passed; when it
 * failed already, the problems are added to its message instead, so they
 * are never lost.
 */
function fail(t: Transaction, message: string): void {
  if (t.test && t.test.valid === false) {
    t.test.message = `${t.test.message || ''}${message}\n`;
    t.fail = true;
  } else {
    t.fail = message;
  }
}

hooks.afterEach((t, done) => {
  // No response (connection refused, timeout): Dredd already reports the error.
  if (!t.real || t.skip) return done();
  problemsOf(t, t.real).then(
    (problems) => {
      if (problems.length > 0) fail(t, `spec: ${problems.join('; ')}`);
      done();
    },
    (error: unknown) => {
      fail(t, `spec check errored: ${(error as Error).message}`);
      done();
    },
  );
});
