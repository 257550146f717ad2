import { describe, expect, it } from 'vitest';
import type { AnswerChecks } from '../../../src/config/ops.js';
import { responseChecker } from '../../../src/store/journal/capture.js';
import type { V1Exchange } from '../../../src/kernel/operation.js';
import { loadSpec } from '../../../src/openapi/load-spec.js';
import { createValidators } from '../../../src/openapi/validate.js';
import type { MismatchReason } from '../../../src/ops/metrics.js';
import { createNoMetrics } from '../../../src/ops/no-metrics.js';
import { createReporting } from '../../../src/ops/reporting.js';
import { silentLogger } from '../../../src/kernel/logger.js';

const spec = loadSpec();
const check = responseChecker(spec, createValidators(spec));

/** The mismatches counted for these answers of getPet, with these checks. */
function mismatches(checks: AnswerChecks | undefined, answers: { status: number; body: unknown; checked?: boolean }[]): MismatchReason[] {
  const counted: MismatchReason[] = [];
  const metrics = { ...createNoMetrics(), mismatch: (_operation: string, reason: MismatchReason) => void counted.push(reason) };
  const reporting = createReporting({
    logger: silentLogger,
    metrics,
    runtime: { mode: 'stateful' },
    workspaceOf: () => 'ws',
    check,
    also: () => undefined,
    ...(checks ? { checks } : {}),
  });
  for (const { status, body, checked } of answers) {
    const e: V1Exchange = {
      method: 'GET',
      headers: {},
      requestId: 'r',
      url: '/v1/pets/1',
      requestBytes: undefined,
      op: spec.operations.get('getPet'),
      key: 'k',
      status,
      body,
      text: JSON.stringify(body),
      durationMs: 1,
      ...(checked ? { checked } : {}),
    };
    reporting.onResponse(e);
  }
  return counted;
}

// Each body differs, so that no answer is the remembered one of its operation and status.
const offSchema = (n: number, checked = false) => Array.from({ length: n }, (_, i) => ({ status: 200, body: { id: i + 1, name: 7, categoryId: 1 }, checked }));
const undocumented = (n: number) => Array.from({ length: n }, (_, i) => ({ status: 418, body: { code: 'x', message: String(i), status: 418 } }));

describe('the spec check of each /v1 answer, for the mismatch metric', () => {
  it('by default, checks every body but one built from checked values', () => {
    expect(mismatches(undefined, offSchema(2))).toEqual(['body', 'body']);
    expect(mismatches(undefined, offSchema(2, true))).toEqual([]);
  });

  it('with full, checks those too', () => {
    expect(mismatches({ every: 1, checked: true }, offSchema(2, true))).toEqual(['body', 'body']);
  });

  it('with sample:N, checks one body in N, and every status', () => {
    expect(mismatches({ every: 3, checked: false }, offSchema(9))).toEqual(['body', 'body', 'body']);
    expect(mismatches({ every: 3, checked: false }, undocumented(4))).toEqual(['status', 'status', 'status', 'status']);
  });

  it('with off, checks no body, and every status', () => {
    expect(mismatches({ every: 0, checked: false }, [...offSchema(3), ...undocumented(2)])).toEqual(['status', 'status']);
  });
});
