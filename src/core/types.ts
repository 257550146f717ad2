/**
 * The engine's request and answer: plain values, no transport. Every way in
 * (the Node server, the Connect middleware, the fetch handler, the library's
 * in-process `fetch`) turns what it received into an `EngineRequest` and
 * writes the `EngineResponse` back out. Plain objects, not WHATWG
 * `Request`/`Response`: those cost CPU on the Node path.
 */

/** Header values as Node keeps them: lower-case names, repeated headers as arrays. */
export type EngineHeaders = Record<string, string | string[] | undefined>;

export interface EngineRequest {
  /** Upper-case, e.g. `GET`. */
  method: string;
  /** The request target as sent: the path and the query string, e.g. `/v1/pets?limit=5`. */
  url: string;
  /** Lower-case names. */
  headers: EngineHeaders;
  /**
   * The body's bytes with any Content-Encoding undone (the adapter decodes,
   * within the body limit), or undefined when the request has none.
   */
  body?: Uint8Array | undefined;
  /** Aborted when the client is gone: a wait with no end of its own (a live tail) stops on it. */
  signal?: AbortSignal | undefined;
}

/** A body that arrives over time: the live journal, a large export. */
export type EngineStream = AsyncIterable<string | Uint8Array>;

export interface EngineResponse {
  status: number;
  /** Header names as they are sent; values as Node's `setHeader` takes them. */
  headers: Record<string, string | number | readonly string[]>;
  /** Text (JSON, as sent), bytes (an upstream's answer), a stream, or undefined for no body (HEAD, 204). */
  body: string | Uint8Array | EngineStream | undefined;
}

/** Whether a body is a stream rather than text or bytes. */
export const isEngineStream = (body: EngineResponse['body']): body is EngineStream => typeof body === 'object' && body !== null && Symbol.asyncIterator in body;
