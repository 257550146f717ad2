/**
 * The CTRF JSON of a `verify` run (Common Test Report Format, spec 0.0.0,
 * as `ctrf`'s published JSON schema describes it).
 */
import { randomUUID } from 'node:crypto';
import { cutBody, describeExchange, redactHeader, type ReportCase, type ReportMismatch } from './report-case.js';
import type { ReportRun } from './report-run.js';

/** The CTRF specification version this writer follows. */
export const CTRF_SPEC_VERSION = '0.0.0';

const redacted = (headers: Record<string, string | string[]> | undefined) =>
  headers &&
  Object.fromEntries(
    Object.entries(headers).map(([name, value]) => [
      name,
      [value]
        .flat()
        .map((v) => redactHeader(name, String(v)))
        .join(', '),
    ]),
  );

/** A request's or a response's data: credentials redacted, the body cut as in `trace` (and as JUnit's). */
const exchanged = <T extends { headers?: Record<string, string | string[]>; body?: string }>(part: T) => ({
  ...part,
  headers: redacted(part.headers),
  ...(part.body === undefined ? {} : { body: cutBody(part.body) }),
});

const cutSides = (m: ReportMismatch): ReportMismatch => ({
  ...m,
  ...(m.expected === undefined ? {} : { expected: cutBody(m.expected) }),
  ...(m.actual === undefined ? {} : { actual: cutBody(m.actual) }),
});

function test(c: ReportCase): Record<string, unknown> {
  const trace = describeExchange(c);
  return {
    name: c.name,
    // CTRF has no "error": a case that could not be checked fails the run too; rawStatus keeps the difference.
    status: c.status === 'error' ? 'failed' : c.status,
    rawStatus: c.status,
    duration: Math.round(Math.max(0, c.durationMs)),
    suite: [c.tool, c.group],
    type: 'contract',
    ...(c.message ? { message: c.message } : {}),
    ...(trace ? { trace } : {}),
    extra: {
      ...(c.request ? { request: exchanged(c.request) } : {}),
      ...(c.response ? { response: exchanged(c.response) } : {}),
      ...(c.expectedStatus ? { expectedStatus: c.expectedStatus } : {}),
      ...(c.mismatches ? { mismatches: c.mismatches.map(cutSides) } : {}),
      ...(c.providerStates ? { providerStates: c.providerStates } : {}),
    },
  };
}

/** The report as a JSON-ready object: one test per case, suites `[tool, group]`. */
export function toCtrf(cases: ReportCase[], run: ReportRun): Record<string, unknown> {
  const countOf = (status: string) => cases.filter((c) => (c.status === 'error' ? 'failed' : c.status) === status).length;
  return {
    reportFormat: 'CTRF',
    specVersion: CTRF_SPEC_VERSION,
    reportId: randomUUID(),
    timestamp: new Date(run.stop).toISOString(),
    generatedBy: run.name,
    results: {
      tool: { name: run.name },
      summary: {
        tests: cases.length,
        passed: countOf('passed'),
        failed: countOf('failed'),
        skipped: countOf('skipped'),
        pending: 0,
        other: 0,
        suites: new Set(cases.map((c) => `${c.tool}\n${c.group}`)).size,
        start: run.start,
        stop: run.stop,
        duration: run.stop - run.start,
      },
      tests: cases.map(test),
      environment: { reportName: `${run.name} ${run.target}` },
      extra: { target: run.target, ...(run.coverage ? { coverage: run.coverage } : {}) },
    },
  };
}
