import { stringifyJson } from './json.js';
import { ApiError, codeForStatus, type ErrorBody } from './errors.js';
import { StoreFailure } from './store-errors.js';
import type { OutHeaders } from './types.js';
import { utf8Length } from './json.js';

/**
 * Seconds a client is told to wait (`Retry-After`) when the storage cannot be reached: a database restarting,
 * a data folder back after a moment. A balancer or a client's retry then knows the 503 is not final.
 */
const STORAGE_RETRY_AFTER_S = '1';

/** Turns anything thrown into a known ApiError; unknown failures become a bare 500. */
export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof StoreFailure)
    return ApiError.of(error.code, error.message, error.code === 'service_unavailable' ? { 'Retry-After': STORAGE_RETRY_AFTER_S } : undefined);
  // Express's router marks a fault of the client with a 4xx `status` (the control plane's routes still run in it).
  const status = (error as { status?: unknown } | null)?.status;
  if (typeof status === 'number' && Number.isInteger(status) && status >= 400 && status < 500)
    return new ApiError(codeForStatus(status), status, `Malformed request: ${(error as Error).message}.`);
  return ApiError.of('internal', 'Internal error. The sandbox logged the details.');
}

/**
 * JSON text as the spec declares it: `Content-Type: application/json`
 * exactly (Express's `res.json` would append `; charset=utf-8`, which
 * contract tools such as Dredd compare literally) and its length. `json`,
 * when given, is `body` already serialized. Returns the text.
 */
export function jsonInto(out: OutHeaders, body: unknown, json?: string, byteLength?: number): string {
  const text = json ?? stringifyJson(body);
  out['Content-Type'] = 'application/json';
  out['Content-Length'] = json !== undefined && byteLength !== undefined ? byteLength : utf8Length(text);
  return text;
}

/** An ApiError as an answer: the spec's Error body plus the error's own headers, added to `out`. */
function errorInto(out: OutHeaders, error: ApiError): { body: ErrorBody; text: string } {
  for (const name in error.headers) out[name] = error.headers[name] as string;
  const body = error.toBody();
  return { body, text: jsonInto(out, body) };
}

/** Hears an unexpected failure with the request it broke; the client sees none of it. */
export type Unexpected = (error: unknown, request: { method: string; url: string }) => void;

/**
 * The one error exit: anything thrown becomes the spec's Error body with
 * the error's headers, added to `out`; an unexpected failure a generic 500,
 * its details only to `onUnexpected`.
 */
export function errorAnswer(error: unknown, out: OutHeaders, request: { method: string; url: string }, onUnexpected?: Unexpected) {
  const api = toApiError(error);
  if (api.status >= 500 && !(error instanceof ApiError)) onUnexpected?.(error, request);
  return { status: api.status, ...errorInto(out, api) };
}
