import type { OperationSpec } from '../openapi/spec.js';
import type { CoverageCount } from '../store/journal/coverage-types.js';
import type { ControlResult } from './routes.js';

/** The coverage report, as `GET /__sandbox/coverage` answers it in JSON. */
export type Coverage = ControlResult<'readCoverage'>;
type StatusCount = Coverage['unmatched']['statuses'][number];

export interface CoverageOptions {
  /** The workspace counted; undefined for every workspace (`all=true`). */
  workspace: string | undefined;
  /** The share of documented answers, in percent, below which the report fails. */
  failUnder?: number | undefined;
  /** An operation's path with its API's base path; default under `/v1`. */
  pathOf?: (op: OperationSpec) => string;
}

const byStatus = (a: StatusCount, b: StatusCount) => a.status - b.status;

/** `exercised` of `answers` in percent, rounded down to one decimal: 99.96% is not reported as 100%. */
const percentOf = (exercised: number, answers: number): number => (answers === 0 ? 100 : Math.floor((1000 * exercised) / answers) / 10);

/** The ISO date of an HTTP-date (`Thu, 05 Dec 2030 00:00:00 GMT`), or the text itself when it is not one. */
const isoDate = (httpDate: string): string => {
  const time = Date.parse(httpDate);
  return Number.isNaN(time) ? httpDate : new Date(time).toISOString().slice(0, 10);
};

/** The `Sunset` value an operation answers, as the spec pins it (the same header on every documented answer). */
const sunsetOf = (op: OperationSpec): string | undefined => {
  for (const response of op.responses.values()) {
    const entry = Object.entries(response.fixedHeaders).find(([name]) => name.toLowerCase() === 'sunset');
    if (entry) return entry[1];
  }
  return undefined;
};

/**
 * The report from the counts of a journal (or of all): each operation of
 * the interface with every status it documents (0 when never answered),
 * the statuses it answered that it does not document, the requests no
 * operation matched, and the calls of each deprecated operation.
 */
export function buildCoverage(operations: ReadonlyMap<string, OperationSpec>, counts: readonly CoverageCount[], options: CoverageOptions): Coverage {
  const found = new Map<string | null, StatusCount[]>();
  for (const { operationId, status, count } of counts) found.set(operationId, [...(found.get(operationId) ?? []), { status, count }]);
  let answers = 0;
  let exercised = 0;
  const rows = [...operations.values()].map((op) => {
    const got = found.get(op.operationId) ?? [];
    const documented = [...op.responses.keys()].sort((a, b) => a - b);
    const statuses = documented.map((status) => ({ status, count: got.find((g) => g.status === status)?.count ?? 0 }));
    answers += statuses.length;
    exercised += statuses.filter((s) => s.count > 0).length;
    return {
      operationId: op.operationId,
      method: op.method.toUpperCase(),
      path: options.pathOf?.(op) ?? `/v1${op.path}`,
      deprecated: op.deprecated,
      requests: got.reduce((n, g) => n + g.count, 0),
      statuses,
      undocumented: got.filter((g) => !op.responses.has(g.status)).sort(byStatus),
    };
  });
  const unmatched = (found.get(null) ?? []).sort(byStatus);
  const deprecated = rows
    .filter((row) => row.deprecated)
    .map(({ operationId, method, path, requests }) => {
      const sunset = sunsetOf(operations.get(operationId) as OperationSpec) ?? 'unannounced';
      return { operationId, method, path, calls: requests, sunset, sunsetDate: isoDate(sunset) };
    });
  const { workspace, failUnder } = options;
  return {
    scope: workspace === undefined ? 'all' : 'workspace',
    ...(workspace === undefined ? {} : { workspace }),
    requests: counts.reduce((n, c) => n + c.count, 0),
    documented: { answers, exercised, percent: percentOf(exercised, answers) },
    // Compared on the exact share, not on the rounded percent.
    ...(failUnder === undefined ? {} : { threshold: { failUnder, met: exercised * 100 >= failUnder * answers } }),
    operations: rows,
    unmatched: { requests: unmatched.reduce((n, s) => n + s.count, 0), statuses: unmatched },
    deprecated,
  };
}
