/**
 * The engine's request and answer: plain values, no transport. Every way in
 * (the Node server and middleware, the fetch handler, MSW, the library's
 * in-process `fetch` and `handle`) turns what it received into an
 * `EngineRequest` and writes the `EngineResponse` back out. Plain objects,
 * not WHATWG `Request`/`Response`: those cost CPU on the Node path.
 */

/** Header values as Node keeps them: lower-case names, repeated headers as arrays. */
export type EngineHeaders = Record<string, string | string[] | undefined>;

/**
 * A request's body, read only when and as far as the engine asks: a route
 * that takes no body never reads it, a refused request is refused before a
 * byte is read, and each route names its own limit (`/v1`'s `--body-limit`,
 * the control plane's 64 MiB). A way in gives one only when a body was sent.
 */
export interface BodyReader {
  /**
   * The body's bytes with its Content-Encoding undone, at most `limit` of
   * them once decoded. Rejects with the ApiError of the catalogue: 413 past
   * the limit (a declared length over it before a byte is read), 415 for an
   * encoding it cannot undo, 400 for bytes that do not decode or a body cut short.
   */
  read(limit: number): Promise<Uint8Array>;
  /** The body's bytes as sent, its Content-Encoding kept, at most `limit` of them (413 past it): what proxy mode passes on. */
  raw(limit: number): Promise<Uint8Array>;
}

export interface EngineRequest {
  /** Upper-case, e.g. `GET`. */
  method: string;
  /** The request target as sent: the path and the query string, e.g. `/v1/pets?limit=5` (an absolute-form target routes by its path). */
  url: string;
  /** Lower-case names. */
  headers: EngineHeaders;
  /**
   * The body, undefined when none was sent: its bytes at hand (with any
   * Content-Encoding undone, judged against the route's limit like any
   * other), or a reader the engine asks when the route reads a body.
   */
  body?: Uint8Array | BodyReader | undefined;
  /** Aborted when the client is gone: a wait with no end of its own (a live tail, an upstream) stops on it. */
  signal?: AbortSignal | undefined;
  /**
   * The address of the peer the request came from over a network (a
   * socket's `remoteAddress`): the exposure rule judges it (the Host
   * allow-list, and loopback only with the documented secrets), and the caps
   * per client count by it. Undefined for a request made in process: it
   * crossed no network, and the process is one client.
   */
  peer?: string | undefined;
  /** The headers as sent (Node's `rawHeaders`: names in their case, in their order), for proxy mode; derived from `headers` when absent. */
  rawHeaders?: readonly string[] | undefined;
}

/** Headers of an answer as the engine builds them, in the order they are sent. */
export type OutHeaders = Record<string, string | number | readonly string[]>;

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
