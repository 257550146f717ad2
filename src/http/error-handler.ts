import type { ErrorRequestHandler } from 'express';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { StoreFailure } from '../store/errors.js';
import { ApiError, codeForStatus, type ErrorBody } from './errors.js';
import { sendJson } from './send.js';

/** Turns anything thrown into a known ApiError; unknown failures become a bare 500. */
export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof StoreFailure) return ApiError.of(error.code, error.message);
  // Express's router marks a fault of the client with a 4xx `status`: a path parameter whose percent-encoding does
  // not decode. Request bodies are read by http/read-json-body.ts, which throws ApiErrors of its own.
  const status = (error as { status?: unknown } | null)?.status;
  if (typeof status === 'number' && Number.isInteger(status) && status >= 400 && status < 500)
    return new ApiError(codeForStatus(status), status, `Malformed request: ${(error as Error).message}.`);
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
