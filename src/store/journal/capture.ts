import { maskedCredential } from '../../kernel/auth.js';
import type { V1Exchange, Violation } from '../../kernel/operation.js';
import type { Spec } from '../../openapi/spec.js';
import { responseIssues } from '../../openapi/response-issues.js';
import type { Issue, Validators } from '../../openapi/validate.js';
import { captureBytes, captureText, JOURNAL_BODY_LIMIT, type BodyText } from './body.js';
import type { JournalRecord, ResponseCheck } from './types.js';

/**
 * What an exchange broke of the spec, for the journal and the metrics: a
 * request that matched no operation (an unknown path's 404, a 405, the
 * store area's 501) is outside the interface whatever it was answered;
 * otherwise the one response check (`openapi/response-issues.ts`) decides.
 */
export function responseChecker(spec: Spec, validators: Validators): ResponseCheck {
  const issues = responseIssues(spec, validators);
  return (operationId, status, body, bodyChecked) =>
    operationId === null ?
      [{ in: 'operation', name: '', message: `no operation of the spec matches the request; its ${status} is the sandbox's own answer` }]
    : issues(operationId, status, body, bodyChecked);
}

/**
 * The response check of several APIs served side by side (`--spec`): each
 * operation checked against its own spec. An operation id two specs share
 * is checked against the first that has it.
 */
export function responseCheckerOf(apis: readonly { spec: Spec; validators: Validators }[]): ResponseCheck {
  const checks = apis.map(({ spec, validators }) => responseChecker(spec, validators));
  const [first] = checks;
  if (first === undefined) throw new Error('no spec to check responses against');
  if (checks.length === 1) return first;
  const byId = new Map<string, ResponseCheck>();
  apis.forEach(({ spec }, i) => {
    for (const id of spec.operations.keys()) if (!byId.has(id)) byId.set(id, checks[i] as ResponseCheck);
  });
  return (operationId, status, body, bodyChecked) => ((operationId !== null && byId.get(operationId)) || first)(operationId, status, body, bodyChecked);
}

/** Shared by every record that kept the spec, so that a valid proxied entry holds no array of its own. */
const NONE: Issue[] = [];

/** A proxied exchange's issues: the upstream's answer breaking the spec, or a request no operation matches. */
function passedIssues(violations: readonly Violation[] = []): Issue[] {
  const issues = violations.filter((v) => v.at === 'response' || v.in === 'operation');
  return issues.length === 0 ? NONE : issues.map(({ in: where, name, message }) => ({ in: where, name, message }));
}

interface LongResponse {
  text: string;
  operationId: string | null;
  status: number;
  body: BodyText;
  specIssues: Issue[];
}

/**
 * Turns a finished exchange into what the journal keeps: its bodies as
 * text, cut at capture. A response too long to keep whole is checked
 * against the spec now, while its value is at hand (every other one is
 * checked when the journal is read).
 *
 * The last long response is remembered: a page the store serves again is
 * the same string, so repeated reads of a large page share one cut copy
 * and one check instead of paying both per request. That one string is
 * all this keeps beyond the journal.
 */
export function createJournalCapture(check: ResponseCheck): (e: V1Exchange) => JournalRecord {
  let last: LongResponse | undefined;
  const longResponse = (operationId: string | null, status: number, text: string, value: unknown): LongResponse => {
    if (last?.status === status && last.operationId === operationId && last.text === text) return last;
    return (last = { text, operationId, status, body: captureText(text), specIssues: check(operationId, status, value) });
  };
  return (e) => {
    const operationId = e.op?.operationId ?? null;
    const long = e.text !== undefined && e.text.length > JOURNAL_BODY_LIMIT ? longResponse(operationId, e.status, e.text, e.body) : undefined;
    // Built field by field: no object made only to be spread into this one, nothing held that the entry does not show.
    const record: JournalRecord = {
      time: Date.now(),
      method: e.method,
      url: e.url,
      operationId,
      status: e.status,
      durationMs: Math.round(e.durationMs * 100) / 100,
      request: e.requestBytes && captureBytes(e.requestBytes),
      response: long?.body ?? (e.text === undefined ? undefined : captureText(e.text)),
    };
    if (long) record.specIssues = long.specIssues;
    if (e.violations) record.violations = e.violations;
    // An upstream's answer was checked as it passed: that verdict is kept, whatever its body was (HTML, cut).
    if (e.passed) record.specIssues = passedIssues(e.violations);
    // Refused for its key: the admin sees what it presented, masked (the journal of unauthenticated requests).
    if (e.key === undefined) record.credential = maskedCredential(e.headers.authorization as string | undefined);
    return record;
  };
}
