/**
 * One test case of a `verify --report` file: a Dredd transaction, a Pact
 * interaction, or a check that kept them from running. The JUnit and CTRF
 * writers render the same cases.
 */

/** An HTTP request as a report shows it. */
export interface ReportRequest {
  method: string;
  /** The path and query, or a full URL. */
  url: string;
  headers?: Record<string, string | string[]>;
  body?: string;
}

/** An HTTP response as a report shows it (for Pact: only what differed, see {@link ReportCase.mismatches}). */
export interface ReportResponse {
  status: number | string;
  headers?: Record<string, string | string[]>;
  body?: string;
}

/** What the pact expected and what the provider answered, one difference each. */
export interface ReportMismatch {
  type: string;
  /** Where: a JSON path in the body, or a header's name. */
  path?: string;
  expected?: string;
  actual?: string;
  mismatch: string;
}

export interface ReportCase {
  /** `Dredd`, `Pact`, or `verify` for a check around them. */
  tool: string;
  /** The group within the tool: the spec file for Dredd, the consumer for Pact. */
  group: string;
  name: string;
  /** `error`: the case could not be checked (no answer, a failed setup); `failed`: the answer broke the contract. */
  status: 'passed' | 'failed' | 'error' | 'skipped';
  durationMs: number;
  /** Why it failed or was skipped; empty when it passed. */
  message: string;
  request?: ReportRequest;
  response?: ReportResponse;
  /** The status the contract expected. */
  expectedStatus?: string;
  /** Pact's differences between the expected and the actual response. */
  mismatches?: ReportMismatch[];
  /** Pact's provider states, set up before the request. */
  providerStates?: string[];
}

/** Headers whose values are credentials: reports go to CI artifacts, which many people can read. */
const SECRET_HEADERS = new Set(['authorization', 'x-sandbox-key', 'cookie', 'proxy-authorization']);

/** Bodies are cut here: a report is read by people, and a list of 100 pets says nothing more than its start. */
export const BODY_LIMIT = 4096;

/** A header's value as a report shows it: credentials replaced, keeping the scheme (`Bearer <redacted>`). */
export function redactHeader(name: string, value: string): string {
  if (!SECRET_HEADERS.has(name.toLowerCase())) return value;
  const scheme = /^(\w+) /.exec(value)?.[1];
  return scheme ? `${scheme} <redacted>` : '<redacted>';
}

function headerLines(headers: Record<string, string | string[]> | undefined): string[] {
  return Object.entries(headers ?? {}).flatMap(([name, value]) => [value].flat().map((v) => `  ${name}: ${redactHeader(name, String(v))}`));
}

/** A body (or a Pact difference's side) as every report writes it: its first {@link BODY_LIMIT} characters, saying how many were left out. */
export function cutBody(body: string): string {
  return body.length > BODY_LIMIT ? `${body.slice(0, BODY_LIMIT)}... (${body.length - BODY_LIMIT} more characters)` : body;
}

function bodyLines(body: string | undefined): string[] {
  if (body === undefined || body === '') return [];
  return [
    '',
    ...cutBody(body)
      .split('\n')
      .map((line) => `  ${line}`),
  ];
}

/** The request and the response of a case as plain text, for a JUnit failure's text and `system-out`, and CTRF's `trace`. */
export function describeExchange(c: ReportCase): string {
  const lines: string[] = [];
  if (c.providerStates?.length) lines.push(`Provider states: ${c.providerStates.join('; ')}`);
  if (c.request) lines.push('Request:', `  ${c.request.method} ${c.request.url}`, ...headerLines(c.request.headers), ...bodyLines(c.request.body));
  if (c.response) {
    const expected = c.expectedStatus && String(c.expectedStatus) !== String(c.response.status) ? ` (expected ${c.expectedStatus})` : '';
    lines.push(`Response: ${c.response.status}${expected}`, ...headerLines(c.response.headers), ...bodyLines(c.response.body));
  } else if (c.request && c.status !== 'skipped' && !c.mismatches) {
    lines.push(`Response: none${c.expectedStatus ? ` (expected ${c.expectedStatus})` : ''}`);
  }
  if (c.mismatches?.length) {
    lines.push('Response differences (expected -> actual):');
    for (const m of c.mismatches)
      lines.push(
        `  ${m.type}${m.path ? ` ${m.path}` : ''}: ${m.mismatch}${m.expected !== undefined ? ` (${cutBody(m.expected)} -> ${cutBody(m.actual ?? '')})` : ''}`,
      );
  }
  return lines.join('\n');
}
