/**
 * What a /v1 request becomes on its way through the sandbox: the types the
 * pipeline, the modes, the interceptors, the journal and the control plane
 * share. It imports nothing of theirs, so none of them reaches up to another.
 */
import type { Mode } from '../config/load.js';
import type { EngineHeaders } from './types.js';
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
  /** The request's headers, lower-case names. */
  headers: EngineHeaders;
  /** The path after `/v1`, with its query string, as the client sent it. */
  url: string;
  /** Aborted once the client is gone (or answered): a wait with no end of its own stops on it. */
  readonly signal?: AbortSignal;
  /** Aborted when the sandbox closes, with the 503 to answer: such a wait stops on it too. */
  readonly closing?: AbortSignal | undefined;
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
  /**
   * The body is built from values already checked against the spec (the
   * store's pets, each checked as it entered the store): the report then
   * checks its status, not its body again (`--check-answers`).
   */
  checked?: boolean;
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
 * One that reacts to a request header only names it (`onHeader`, lower
 * case): the pipeline then skips it on every request without that header,
 * the common case, without calling it.
 */
export type Interceptor = ((request: OperationRequest, mode: Mode) => Promise<Reply | undefined> | Reply | undefined) & {
  readonly onHeader?: string;
};

/** One way a proxied request or its upstream's response breaks the spec (`Sandbox-Violations`, journal). */
export interface Violation {
  at: 'request' | 'response';
  in: 'operation' | 'path' | 'query' | 'header' | 'body' | 'status';
  /** The parameter, header or body field (slash-separated path); empty for the whole. */
  name: string;
  message: string;
}

/** A finished request outside the /v1 pipeline (control plane, probes, metrics, unknown paths). */
export interface AnsweredRequest {
  /** Upper-case, e.g. `GET`. */
  method: string;
  /** The request's headers, lower-case names. */
  headers: EngineHeaders;
  /** The request target as sent: the path and the query string. */
  url: string;
  status: number;
  durationMs: number;
  requestId: string;
  /** The control operation answered, if one was. */
  operation: string | undefined;
}

/** A finished /v1 request and what it was answered. */
export interface V1Exchange {
  /** Upper-case, e.g. `GET`. */
  method: string;
  /** The request's headers, lower-case names. */
  headers: EngineHeaders;
  /** `X-Request-Id`, as the response carries it. */
  requestId: string;
  /** The request target as sent (with `/v1`): the path and the query string. */
  url: string;
  /** The request body's bytes, if the body was read (with a Content-Encoding undone). */
  requestBytes: Uint8Array | undefined;
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
  /** What the request and its answer broke of the spec, in proxy mode only. */
  violations?: Violation[];
  /** Whether the answer is an upstream's, passed as it came (proxy mode): its violations then say whether it kept the spec. */
  passed?: boolean;
  /** Whether the body was built from values already checked against the spec (`Reply.checked`). */
  checked?: boolean;
}

/** State that can change while the sandbox runs. */
export interface Runtime {
  mode: Mode;
}

/**
 * Who may call an API's operations, and with which key (the workspace's):
 * the Pet Store's bearer key by default, or the security a spec declares
 * (an API key in a header or the query, HTTP bearer or basic; an open operation).
 */
export interface Access {
  /** The request's key when the sandbox accepts it for `op` (no refusal): its shared state is brought up to date before it is answered. */
  accepted(headers: EngineHeaders, op?: OperationSpec, query?: Record<string, unknown>): string | undefined;
  /** The key of a request to `op` (none matched: the API's default security), or the 401 thrown, in the scheme the operation declares. */
  authenticate(headers: EngineHeaders, op: OperationSpec | undefined, query: Record<string, unknown>): string;
}

/** The sandbox's Error, as the body the spec documents for the operation (none matched: undefined) and the error's status. */
export type ErrorShape = (op: OperationSpec | undefined, error: { code: string; message: string; status: number }) => unknown;
