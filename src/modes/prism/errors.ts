import { unauthorized } from '../../kernel/auth.js';
import { ApiError } from '../../kernel/errors.js';
import { echo } from '../../kernel/echo.js';
import { documentedCodes } from '../../kernel/preferences.js';
import type { OperationRequest } from '../../kernel/operation.js';
import type { HttpOperation } from './types.js';
import type { PrismMock } from './mock-config.js';

/** Names of the `application/json` examples of one response, as Prism knows them (`default` is the schema's `example`). */
export function examplesOf(resource: HttpOperation, code: number): string[] {
  const response = resource.responses.find((r) => r.code === String(code));
  const content = response?.contents?.find((c) => c.mediaType === 'application/json');
  return (content?.examples ?? []).map((e) => e.key);
}

/** What Prism rejects with: a ProblemJsonError (`name` is its problem type URI) or a plain Error. */
export type PrismFailure = Error & {
  status?: number;
  detail?: string;
  additional?: { validation?: { location?: string[]; message?: string }[] };
};

/**
 * Any other client error Prism makes up, as the sandbox's Error with the
 * status stateful mode uses for a bad request; server errors stay unexpected.
 */
export function fromPrismStatus(status: number, detail: string): ApiError | undefined {
  return status >= 400 && status < 500 ? ApiError.of('invalid_request', detail) : undefined;
}

/**
 * Maps Prism's problem+json failures to the sandbox's Error codes and the
 * statuses stateful mode would answer with, so no mode ever shows
 * problem+json or a 422. Most cannot happen (auth and validation run before
 * Prism); they are mapped rather than trusted never to happen.
 */
export function fromPrismFailure(error: PrismFailure, request: OperationRequest, resource: HttpOperation, mock: PrismMock): Error {
  const type = error.name.slice(error.name.indexOf('#') + 1);
  const detail = error.detail || error.message;
  const path = request.url.split('?')[0] ?? request.url;
  switch (type) {
    case 'UNPROCESSABLE_ENTITY': {
      const violations = error.additional?.validation ?? [];
      const text = violations.map((v) => `${v.message ?? 'invalid'}.`).join(' ') || detail;
      // A malformed path parameter names nothing, as in stateful mode: 404, not 400.
      if (violations.some((v) => v.location?.[0] === 'path')) return ApiError.of('not_found', `Nothing found at ${echo(path, '')}: ${text}`);
      return ApiError.of('invalid_request', text);
    }
    case 'UNAUTHORIZED':
      return unauthorized('Missing or invalid API key: send Authorization: Bearer <API_KEY>.');
    case 'INVALID_CONTENT_TYPE':
      return ApiError.of('unsupported_media_type', detail);
    case 'NOT_FOUND':
      if (mock.exampleKey !== undefined) {
        const code = mock.code ?? 200;
        return ApiError.of(
          'invalid_request',
          `Prefer: example=${echo(mock.exampleKey, '')} names no example of ${request.op.operationId} ${code}; its examples: ${examplesOf(resource, code).join(', ') || 'none'}.`,
        );
      }
      if (mock.code !== undefined) {
        return ApiError.of(
          'invalid_request',
          `Prefer: code=${mock.code} is not a documented status of ${request.op.operationId}; documented codes: ${documentedCodes(request).join(', ')}.`,
        );
      }
      return ApiError.of('not_found', `Nothing found at ${echo(path, '')}.`);
    case 'NO_PATH_MATCHED_ERROR':
    case 'NO_RESOURCE_PROVIDED_ERROR':
    case 'NO_SERVER_MATCHED_ERROR':
      return ApiError.of('not_found', `No operation at ${request.op.method.toUpperCase()} ${echo(path, '')}.`);
    case 'NO_METHOD_MATCHED_ERROR':
      return ApiError.of('method_not_allowed', detail);
    default:
      return fromPrismStatus(error.status ?? 500, detail) ?? error;
  }
}
