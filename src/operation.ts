/**
 * What a /v1 request becomes on its way through the sandbox: the types the
 * pipeline, the modes, the interceptors, the journal and the control plane
 * share. It imports nothing of theirs, so none of them reaches up to another.
 */
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import type { Mode } from './config.js';
import type { OperationSpec } from './openapi/spec.js';

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
  /** The body already serialized, when the mode has it (exactly `stringifyJson(body)`). */
  json?: string;
  /** The byte length of `json`, when known. */
  byteLength?: number;
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
  /** A reply, or a promise of one when the mode has to wait (a write, Prism). */
  handle(request: OperationRequest): Reply | Promise<Reply>;
}

/**
 * A step between validation and the mode: it may answer instead of the mode
 * (a forced fault, `Prefer: code=...`) or let the request through (undefined).
 */
export type Interceptor = (request: OperationRequest, mode: Mode) => Promise<Reply | undefined> | Reply | undefined;

/** A finished /v1 request and what it was answered. */
export interface V1Exchange {
  req: IncomingMessage;
  /** The request target as sent (with `/v1`): the path and the query string. */
  url: string;
  /** The request body's bytes, if the body was read (with a Content-Encoding undone). */
  requestBytes: Buffer | undefined;
  /** The operation matched, if any. */
  op: OperationSpec | undefined;
  /** The API key, when it was accepted. */
  key: string | undefined;
  status: number;
  /** The response body as sent (before serialization). */
  body: unknown;
  /** The response body's JSON text as sent. */
  text: string | undefined;
  durationMs: number;
}

/** State that can change while the sandbox runs. */
export interface Runtime {
  mode: Mode;
}
