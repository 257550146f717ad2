import { STATUS_CODES } from 'node:http';
import type { IHttpResponse } from '@stoplight/prism-http';
import { ApiError, codeForStatus, isErrorCode, type ErrorBody } from '../../kernel/errors.js';
import type { OperationRequest, Reply } from '../../kernel/operation.js';
import type { HttpOperation } from './types.js';
import type { PrismMock } from './mock-config.js';
import { fromPrismStatus } from './errors.js';

const isSandboxError = (body: unknown, status: number): body is ErrorBody => {
  const b = body as Partial<ErrorBody> | null | undefined;
  return isErrorCode(b?.code) && typeof b.message === 'string' && b.status === status;
};

/**
 * An error answer keeps the spec's Error shape with one of the sandbox's
 * codes: a spec example already is one; a body generated from the schema
 * (dynamic mode) has a random `code` and extra fields, which clients that
 * branch on `code` could not use, so it is replaced.
 */
function errorBody(body: unknown, status: number, request: OperationRequest, mock: PrismMock): ErrorBody {
  if (isSandboxError(body, status)) return { code: body.code, message: body.message, status };
  const why = mock.code === status ? ` (Prefer: code=${status})` : '';
  return { code: codeForStatus(status), message: `${STATUS_CODES[status] ?? 'Error'}: generated ${status} answer of ${request.op.operationId}${why}.`, status };
}

/**
 * Prism's response as a Reply. Headers: only those the spec documents for
 * that response, minus those it pins (Deprecation, Sunset, Link,
 * WWW-Authenticate), which the app sets the same way in every mode; Prism
 * would add its own `deprecation: true` and `Content-type`.
 */
export function toReply(output: IHttpResponse, request: OperationRequest, resource: HttpOperation, mock: PrismMock): Reply {
  const status = output.statusCode;
  const documented = request.op.responses.get(status);
  if (!documented) throw fromPrismStatus(status, `No documented ${status} answer of ${request.op.operationId}.`) ?? ApiError.of('internal', 'Internal error.');
  const response = resource.responses.find((r) => r.code === String(status));
  const allowed = new Set((response?.headers ?? []).map((h) => h.name.toLowerCase()));
  for (const name of Object.keys(documented.fixedHeaders)) allowed.delete(name.toLowerCase());
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(output.headers ?? {})) if (allowed.has(name.toLowerCase())) headers[name] = String(value);
  const body = status >= 400 ? errorBody(output.body, status, request, mock) : output.body;
  return { status, body, headers };
}
