import type { ErrorRequestHandler } from 'express';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { StoreFailure } from '../store/errors.js';
import { ApiError, codeForStatus, type ErrorBody } from './errors.js';
import { sendJson } from './send.js';

/** The strict JSON parser refuses valid JSON that is not an object or array (`null`, `"x"`, `1`). */
function isJson(text: unknown): boolean {
  try {
    JSON.parse(String(text));
    return typeof text === 'string';
  } catch {
    return false;
  }
}

/** Failures of Express's body parser, by its `type`, as documented Error codes. */
const PARSER_ERRORS: Record<string, (e: Error & { limit?: number; charset?: string; encoding?: string }) => ApiError> = {
  'entity.parse.failed': (e) =>
    ApiError.of(
      'invalid_request',
      isJson((e as { body?: unknown }).body) ? 'Request body must be a JSON object.' : `Request body is not valid JSON: ${e.message}`,
    ),
  'entity.too.large': (e) => ApiError.of('payload_too_large', `Request body is larger than the limit of ${e.limit} bytes.`),
  'charset.unsupported': (e) => ApiError.of('unsupported_media_type', `Unsupported charset '${e.charset}': send UTF-8 JSON.`),
  'encoding.unsupported': (e) => ApiError.of('unsupported_media_type', `Unsupported content encoding '${e.encoding}'.`),
  'request.aborted': () => ApiError.of('invalid_request', 'The request body was aborted.'),
  'request.size.invalid': () => ApiError.of('invalid_request', 'The request body is shorter or longer than its Content-Length.'),
  'stream.encoding.set': () => ApiError.of('internal', 'Internal error.'),
};

/** Turns anything thrown into a known ApiError; unknown failures become a bare 500. */
export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof StoreFailure) return ApiError.of(error.code, error.message);
  const type = (error as { type?: unknown } | null)?.type;
  if (typeof type === 'string' && PARSER_ERRORS[type]) return PARSER_ERRORS[type](error as Error);
  // Express and the body parser mark other faults of the client with a 4xx `status`: a path whose
  // percent-encoding does not decode, a gzip/deflate/br body that does not inflate.
  const status = (error as { status?: unknown } | null)?.status;
  if (typeof status === 'number' && Number.isInteger(status) && status >= 400 && status < 500) {
    const zlib = String((error as { code?: unknown }).code ?? '').startsWith('Z_');
    const message =
      zlib ? `Request body does not decode as its Content-Encoding says (${(error as Error).message}).` : `Malformed request: ${(error as Error).message}.`;
    return new ApiError(codeForStatus(status), status, message);
  }
  return ApiError.of('internal', 'Internal error. The sandbox logged the details.');
}

/** Writes an ApiError: the spec's Error body plus the error's own headers. Returns the body and its JSON text. */
export function sendError(res: ServerResponse, error: ApiError): { body: ErrorBody; text: string } {
  for (const [name, value] of Object.entries(error.headers)) res.setHeader(name, value);
  const body = error.toBody();
  return { body, text: sendJson(res, error.status, body) };
}

/** Express's error handler, handing every error to the sandbox's one error responder. */
export function createErrorHandler(respond: (req: IncomingMessage, res: ServerResponse, error: unknown) => void): ErrorRequestHandler {
  return (error: unknown, req, res, next) => {
    if (res.headersSent) return next(error);
    respond(req, res, error);
  };
}
