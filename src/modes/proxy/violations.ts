import { parse as parseContentType } from 'content-type';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { bearerToken } from '../../kernel/auth.js';
import type { Violation } from '../../kernel/operation.js';
import type { EngineHeaders } from '../../kernel/types.js';
import type { ForwardRequest } from './types.js';
import type { ResponseIssues } from '../../openapi/response-issues.js';
import type { OperationSpec } from '../../openapi/spec.js';
import type { Issue, RequestValidator } from '../../openapi/validate.js';

const DECODERS: Record<string, (bytes: Uint8Array) => Uint8Array> = { gzip: gunzipSync, deflate: inflateSync, br: brotliDecompressSync };

const single = (value: string | string[] | undefined): string | undefined => (Array.isArray(value) ? value.join(', ') : value);

/** A body read as JSON for checking: its value, or the reason it has none. */
type Read = { ok: true; value: unknown } | { ok: false; why: string };

/** A body's JSON value, its Content-Encoding undone; the reason when it is not JSON at all. */
function readJson(headers: EngineHeaders, bytes: Uint8Array): Read {
  const contentType = single(headers['content-type']);
  let type: string | undefined;
  try {
    type = parseContentType(contentType ?? '').type;
  } catch {
    type = undefined;
  }
  if (type !== 'application/json') return { ok: false, why: `Content-Type must be application/json, got '${contentType ?? 'none'}'` };
  const encoding = (single(headers['content-encoding']) ?? 'identity').toLowerCase();
  const decode = encoding === 'identity' ? (b: Uint8Array) => b : DECODERS[encoding];
  if (!decode) return { ok: false, why: `cannot be checked in Content-Encoding '${encoding}'` };
  try {
    return { ok: true, value: JSON.parse(Buffer.from(decode(bytes)).toString('utf8')) };
  } catch (error) {
    return { ok: false, why: `is not JSON in its Content-Encoding: ${(error as Error).message}` };
  }
}

const as = (at: Violation['at'], issues: Issue[]): Violation[] => issues.map((i) => ({ at, in: i.in as Violation['in'], name: i.name, message: i.message }));

/** A request's parameters and body against its operation (the same validators the other modes refuse with). */
function operationIssues(validator: RequestValidator, op: OperationSpec, request: ForwardRequest): Issue[] {
  const issues: Issue[] = [];
  const path = validator.path(request.params);
  if (!path.ok) issues.push(...path.issues);
  const query = validator.query(request.query);
  if (!query.ok) issues.push(...query.issues);
  const header = validator.header(request.headers);
  if (!header.ok) issues.push(...header.issues);
  const body = request.body?.length ? readJson(request.headers, request.body) : undefined;
  if (body && !body.ok) issues.push({ in: 'body', name: '', message: body.why });
  else if (body && !op.requestBody) issues.push({ in: 'body', name: '', message: `must be absent: ${op.operationId} takes none` });
  else {
    const checked = validator.body(body?.value);
    if (!checked.ok) issues.push(...checked.issues);
  }
  return issues;
}

/** What a request breaks of the spec: no operation at its method and path, its parameters, its body, its bearer key. */
export function requestViolations(validator: RequestValidator | undefined, request: ForwardRequest): Violation[] {
  const { op } = request;
  if (!op || !validator)
    return [{ at: 'request', in: 'operation', name: '', message: `no operation of the spec at ${request.method} /v1${request.url.split('?')[0] ?? ''}` }];
  const issues = operationIssues(validator, op, request);
  // Every operation requires bearerAuth; whether the key is right is the upstream's to say.
  if (bearerToken(request.headers) === undefined) issues.push({ in: 'header', name: 'Authorization', message: 'must be a bearer token (bearerAuth)' });
  return as('request', issues);
}

/** What an upstream answer breaks of the spec: its status, its body (media type and schema), the headers the spec pins. */
export function responseViolations(
  check: ResponseIssues,
  op: OperationSpec | undefined,
  answer: { status: number; headers: EngineHeaders; body: Uint8Array },
  /** A HEAD answer: it has no body by definition (RFC 9110 9.3.2), so only its status and headers are checked. */
  head = false,
): { violations: Violation[]; value: unknown } {
  const read = answer.body.length ? readJson(answer.headers, answer.body) : { ok: true as const, value: undefined };
  const found = read.ok ? check(op?.operationId ?? null, answer.status, read.value) : [];
  const issues: Issue[] = head ? found.filter((i) => i.in !== 'body') : found;
  if (!read.ok) {
    const status = check(op?.operationId ?? null, answer.status, undefined).filter((i) => i.in === 'status');
    issues.push(...status, { in: 'body', name: '', message: read.why });
  }
  for (const [name, value] of Object.entries(op?.responses.get(answer.status)?.fixedHeaders ?? {})) {
    const sent = answer.headers[name.toLowerCase()];
    if (sent !== value) issues.push({ in: 'header', name, message: `must be '${value}', got ${sent === undefined ? 'none' : `'${String(sent)}'`}` });
  }
  return { violations: as('response', issues), value: read.ok ? read.value : undefined };
}
