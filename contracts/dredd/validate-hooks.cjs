'use strict';
/**
 * Validates every real response against spec/openapi.yaml after Dredd's own
 * checks (status and exact Content-Type), and fails the transaction with
 * the exact problems. Kept apart from hooks.cjs so a run can leave it out
 * and show what Dredd alone would miss.
 */
const hooks = require('hooks');
const { responseProblems } = require('./spec-check.cjs');

// Without a schema, Dredd compares the body with the spec's first example:
// every key the example has becomes required, position by position in an
// array. That fails valid answers (the `mixed` example's second pet has a
// `status`, which Pet does not require) and misses wrong types. The body is
// judged against the schema below instead.
hooks.beforeEachValidation((t) => {
  delete t.expected.body;
  delete t.expected.bodySchema;
});

hooks.afterEach((t, done) => {
  // No response (connection refused, timeout): Dredd already reports the error.
  if (!t.real || t.skip) return done();
  responseProblems(t.request.method, t.request.uri, t.real).then(
    (problems) => {
      if (problems.length > 0) fail(t, `spec: ${problems.join('; ')}`);
      done();
    },
    (error) => {
      fail(t, `spec check errored: ${error.message}`);
      done();
    },
  );
});

/**
 * `t.fail` is only reported when Dredd's own validation passed; when it
 * failed already, the problems are added to its message instead, so they
 * are never lost.
 */
function fail(t, message) {
  if (t.test && t.test.valid === false) {
    t.test.message = `${t.test.message || ''}${message}\n`;
    t.fail = true;
  } else {
    t.fail = message;
  }
}
