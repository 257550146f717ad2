/**
 * The one error type of the sandbox. Handlers throw it; the error handler in
 * `error-handler.ts` is the only place that turns it into a response body.
 *
 * Codes are a small, stable, documented set (README, "Error codes"): clients
 * may branch on them.
 */
export const ERROR_CODES = {
  invalid_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  payload_too_large: 413,
  unsupported_media_type: 415,
  internal: 500,
  not_implemented: 501,
  service_unavailable: 503,
  insufficient_storage: 507,
  quota_exceeded: 507,
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

/** The spec's Error object: `status` always equals the HTTP status. */
export interface ErrorBody {
  code: string;
  message: string;
  status: number;
}

export class ApiError extends Error {
  readonly code: string;
  readonly status: number;
  /** Extra response headers, e.g. `WWW-Authenticate` or `Allow`. */
  readonly headers: Readonly<Record<string, string>>;

  constructor(code: string, status: number, message: string, headers: Record<string, string> = {}) {
    super(message);
    this.name = 'ApiError';
    this.code = code;
    this.status = status;
    this.headers = headers;
  }

  /** An error with one of the documented codes and its usual status. */
  static of(code: ErrorCode, message: string, headers?: Record<string, string>): ApiError {
    return new ApiError(code, ERROR_CODES[code], message, headers);
  }

  toBody(): ErrorBody {
    return { code: this.code, message: this.message, status: this.status };
  }
}

/** The `code` conventionally used for an HTTP status, for statuses forced from outside (Prefer, faults). */
export function codeForStatus(status: number): string {
  for (const [code, s] of Object.entries(ERROR_CODES)) if (s === status) return code;
  return status >= 500 ? 'internal' : 'invalid_request';
}
