import type { IncomingHttpHeaders } from 'node:http';
import type { OperationSpec } from '../openapi/spec.js';

/** A request to one spec operation, already authenticated and validated. */
export interface OperationRequest {
  op: OperationSpec;
  /** The API key that authenticated the request: it selects the workspace. */
  key: string;
  /** Path parameters, coerced to their spec types. */
  path: Record<string, unknown>;
  /** Query parameters, coerced, with spec defaults applied. */
  query: Record<string, unknown>;
  body: unknown;
  headers: IncomingHttpHeaders;
  /** The path after `/v1`, with its query string, as the client sent it. */
  url: string;
}

/** What a mode answers; the app adds the spec's fixed headers and writes it. */
export interface Reply {
  status: number;
  body: unknown;
  /** The body already serialized, when the mode has it (exactly `JSON.stringify(body)`). */
  json?: string;
  headers?: Record<string, string>;
}

/**
 * How `/v1` operations are answered. Every mode gets the same validated
 * request and returns a reply; auth, validation, errors and headers are the
 * app's, so switching modes changes nothing else for a consumer.
 */
export interface ModeHandler {
  /** Operation ids it answers; the app refuses to start if one of the spec's is missing. */
  readonly operations: ReadonlySet<string>;
  handle(request: OperationRequest): Promise<Reply>;
}
