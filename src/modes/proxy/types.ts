/**
 * What the /v1 pipeline and proxy mode agree on, in plain values: the
 * request as it arrived (its headers as sent, its body's bytes as sent) and
 * the upstream's answer as bytes. The engine forwards through a
 * `PassThroughMode` handed to it (on Node, `createProxyMode` over node:http);
 * a sandbox without one (a browser) refuses proxy mode.
 */
import type { Violation } from '../../kernel/operation.js';
import type { EngineHeaders } from '../../kernel/types.js';
import type { OperationSpec } from '../../openapi/spec.js';

/** A /v1 request as it arrived, for a mode that passes requests on instead of answering them. */
export interface ForwardRequest {
  /** As sent, e.g. `GET`. */
  method: string;
  /** Lower-case names. */
  headers: EngineHeaders;
  /** Names in their case and order, values as sent (Node's `rawHeaders` shape). */
  rawHeaders: readonly string[];
  /** The operation matched, with its path parameters as sent (decoded) and its query as parsed; none when no operation matches. */
  op: OperationSpec | undefined;
  params: Record<string, string>;
  query: Record<string, unknown>;
  /** The path after `/v1`, with its query string, as the client sent it. */
  url: string;
  /** The body's bytes as sent (its Content-Encoding kept), if there was one. */
  body: Uint8Array | undefined;
  /** Aborted once the client is gone: the upstream exchange stops with it. */
  signal?: AbortSignal | undefined;
}

/** What a pass-through mode answers: the status, headers and bytes to send as they are, and what broke the spec. */
export interface ForwardReply {
  status: number;
  /** Header names and values as the upstream sent them, hop-by-hop headers removed. */
  headers: [string, string | string[]][];
  body: Uint8Array;
  /** The body's JSON value, when it is JSON, and its text, when it has one (for the journal). */
  value: unknown;
  text: string | undefined;
  violations: Violation[];
}

/** A mode that passes each request on (proxy): it replaces auth, validation, interceptors and the answering mode. */
export interface PassThroughMode {
  /** What the request breaks of the spec; known before it is forwarded, so an answer of the sandbox's own (a 502) reports them too. */
  check(request: ForwardRequest): Violation[];
  /** The upstream's answer; its violations are `asked` (the request's) and the answer's own. */
  forward(request: ForwardRequest, asked: Violation[]): Promise<ForwardReply>;
}
