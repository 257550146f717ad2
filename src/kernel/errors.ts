/**
 * The one error type of the sandbox and its catalogue of codes. Handlers
 * throw an ApiError; the engine's one error exit (`core/error-exit.ts`,
 * which Express's error handler uses too) is the only place that turns it
 * into a response body (the connection-level answers of `server.ts` build
 * theirs from the same catalogue).
 *
 * Codes are a small, stable, documented set (docs/interface.md, "Errors"; a unit test
 * fails when that table and this one differ): clients may branch on them.
 */

/** One code of the catalogue. */
export interface ErrorCodeEntry {
  /** The HTTP status it is sent with. A fault may force another 5xx, answered as `internal`. */
  readonly status: number;
  /** When the sandbox sends it, in one line. */
  readonly when: string;
}

/** Every `code` the sandbox can send, with its status and when it is sent, ordered by status. */
export const ERROR_CODES = {
  invalid_request: { status: 400, when: 'a query, body, header or control-plane value the operation cannot take' },
  unauthorized: { status: 401, when: 'a missing, malformed or unknown API key (or admin token, on the control plane)' },
  forbidden: {
    status: 403,
    when: 'the control plane with a wrong admin token, or with an API key; a request sent to a host name not allowed, or from another machine while the documented secrets are accepted',
  },
  not_found: { status: 404, when: 'no pet with that id, no fixture set or checkpoint of that name, or no route' },
  method_not_allowed: { status: 405, when: 'a /v1 path asked with a method it does not have (Allow lists those it has), or CONNECT' },
  request_timeout: { status: 408, when: 'the request head or the whole request did not arrive in time' },
  conflict: { status: 409, when: 'a checkpoint name already taken, without "overwrite": true' },
  payload_too_large: { status: 413, when: 'a request body over the limit' },
  unsupported_media_type: { status: 415, when: 'a body that is not application/json, not UTF-8, or in an unknown encoding' },
  request_header_too_large: { status: 431, when: 'a request head (request line and headers) over the limit' },
  internal: { status: 500, when: 'an unexpected failure; the details go to the server log only' },
  not_implemented: {
    status: 501,
    when: "the store area of the interface, which it does not describe; checkpoints on a backend without them; in a browser, what needs Node (a switch to Prism's or proxy mode, Prefer's code= or example=)",
  },
  upstream_unavailable: { status: 502, when: 'proxy mode: the upstream refused the connection, failed, or gave no whole answer within --upstream-timeout' },
  service_unavailable: {
    status: 503,
    when: 'storage cannot be written now, every open workspace is busy, the client holds too many connections or live journal tails, or the sandbox is closed',
  },
  insufficient_storage: { status: 507, when: 'the disk holding the data is full or its quota used up' },
  quota_exceeded: { status: 507, when: 'the workspace holds its --quota-pets pets or --quota-bytes bytes' },
} as const satisfies Record<string, ErrorCodeEntry>;

export type ErrorCode = keyof typeof ERROR_CODES;

/** Whether `code` is one of the catalogue's (own keys only: `toString` is not a code). */
export function isErrorCode(code: unknown): code is ErrorCode {
  return typeof code === 'string' && Object.hasOwn(ERROR_CODES, code);
}

/** The spec's Error object: `status` always equals the HTTP status. */
export interface ErrorBody {
  code: ErrorCode;
  message: string;
  status: number;
}

export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  /** Extra response headers, e.g. `WWW-Authenticate` or `Allow`. */
  readonly headers: Readonly<Record<string, string>>;

  /** Prefer `ApiError.of`; this is for a status forced from outside (a fault, Express), which may differ from the code's. */
  constructor(code: ErrorCode, status: number, message: string, headers: Record<string, string> = {}) {
    super(message);
    this.name = 'ApiError';
    this.code = code;
    this.status = status;
    this.headers = headers;
  }

  /** An error with one of the catalogue's codes and its status. */
  static of(code: ErrorCode, message: string, headers?: Record<string, string>): ApiError {
    return new ApiError(code, ERROR_CODES[code].status, message, headers);
  }

  toBody(): ErrorBody {
    return { code: this.code, message: this.message, status: this.status };
  }
}

/**
 * The code for a status forced from outside (Prefer, faults, Express): the
 * first catalogue code with that status, else `internal` for a 5xx and
 * `invalid_request` for a 4xx.
 */
export function codeForStatus(status: number): ErrorCode {
  for (const [code, entry] of Object.entries(ERROR_CODES)) {
    // A forced 502 says nothing of an upstream: only proxy mode sends upstream_unavailable.
    if (entry.status === status && code !== 'upstream_unavailable') return code as ErrorCode;
  }
  return status >= 500 ? 'internal' : 'invalid_request';
}
