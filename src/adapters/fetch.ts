import type { Engine } from '../engine/engine.js';
import { isEngineStream, type EngineHeaders, type EngineRequest, type EngineResponse, type EngineStream } from '../kernel/types.js';
import { fetchBody, type BodyDecoders } from './fetch-body.js';
import { engineRequestOf } from './fetch-init.js';
import { bufferedResponse } from './buffered-response.js';

export interface FetchHandlerOptions {
  /** Decoders of Content-Encodings beyond gzip and deflate (e.g. `br` on Node). */
  decoders?: BodyDecoders;
}

/**
 * What a server that speaks fetch tells its handler of the connection, as
 * its second argument, in the shapes the common ones pass: `remoteAddress`
 * (this sandbox's own), Deno's `remoteAddr.hostname`, `@hono/node-server`'s
 * `incoming.socket.remoteAddress`, Bun's `requestIP(request).address`.
 */
export interface FetchConnectionInfo {
  remoteAddress?: string | undefined;
  remoteAddr?: { hostname?: string | undefined } | undefined;
  incoming?: { socket?: { remoteAddress?: string | undefined } | undefined } | undefined;
  requestIP?: ((request: Request) => { address?: string | undefined } | null | undefined) | undefined;
}

/**
 * The peer address of a connection's info, for the exposure rule; undefined
 * when none is given (the request was made in process), '' when a server
 * named its connection but no address (a Unix domain socket).
 */
export function peerOf(request: Request, info: FetchConnectionInfo | undefined): string | undefined {
  if (info === undefined || info === null || typeof info !== 'object') return undefined;
  const address =
    info.remoteAddress ??
    info.remoteAddr?.hostname ??
    info.incoming?.socket?.remoteAddress ??
    (typeof info.requestIP === 'function' ? info.requestIP(request)?.address : undefined);
  if (typeof address === 'string') return address;
  return 'incoming' in info || 'remoteAddr' in info ? '' : undefined;
}

/** A fetch handler: a Request and, from a server that passes it, its connection's info (FetchConnectionInfo). */
export type FetchHandler = (request: Request, info?: FetchConnectionInfo) => Promise<Response>;

/** Statuses whose response has no body by definition (the Response constructor refuses one). */
const NO_BODY = new Set([101, 103, 204, 205, 304]);
const encoder = new TextEncoder();

/** The request's headers as the engine takes them: lower-case names (a Headers object lists them so). */
function headersOf(headers: Headers): EngineHeaders {
  const out: EngineHeaders = {};
  headers.forEach((value, name) => (out[name] = value));
  return out;
}

const recordOf = (headers: EngineResponse['headers']): Record<string, string> => {
  const out: Record<string, string> = {};
  for (const name in headers) out[name] = String(headers[name]);
  return out;
};

const pairsOf = (headers: EngineResponse['headers']): [string, string][] =>
  Object.entries(headers).flatMap(([name, value]): [string, string][] =>
    Array.isArray(value) ? value.map((v: string) => [name, v]) : [[name, String(value)]],
  );

/** A stream of the engine's pieces, pulled as the reader reads; a reader that cancels ends the engine's stream too. */
function toReadable(stream: EngineStream): ReadableStream<Uint8Array> {
  const iterator = stream[Symbol.asyncIterator]();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { value, done } = await iterator.next();
      if (done) controller.close();
      else controller.enqueue(typeof value === 'string' ? encoder.encode(value) : value);
    },
    async cancel() {
      await iterator.return?.();
    },
  });
}

function toResponse(response: EngineResponse, head: boolean, buffered = false): Response {
  // A plain record when no header repeats (the Response makes its Headers from it at less cost), else pairs.
  const values = Object.values(response.headers);
  const headers = values.some((value) => Array.isArray(value)) ? pairsOf(response.headers) : recordOf(response.headers);
  const { body } = response;
  const none = head || NO_BODY.has(response.status) || body === undefined;
  const init = { status: response.status, headers };
  if (none) return new Response(null, init);
  if (isEngineStream(body)) return new Response(toReadable(body), init);
  // A text or bytes body the caller reads at once: held as it is, not wrapped in a stream (buffered-response.ts).
  return buffered ? bufferedResponse(body, init) : new Response(body as string | Uint8Array<ArrayBuffer>, init);
}

/** The engine's answer as a Response. */
async function answer(engine: Engine, request: EngineRequest, buffered = false): Promise<Response> {
  return toResponse(await engine.handle(request), request.method === 'HEAD', buffered);
}

/**
 * The engine as a fetch handler, `(Request) => Promise<Response>`: for
 * in-process use (the library's `sandbox.handler`, MSW) and for runtimes
 * that speak fetch. The request's body is handed to the engine as a reader
 * (read, and its Content-Encoding undone, only when and as far as the
 * engine asks); the answer becomes a Response, a stream (the live journal,
 * a large export) as a ReadableStream pulled as the caller reads. A server
 * that passes its connection's info as the second argument (Deno's,
 * Bun's, `@hono/node-server`'s, or `{ remoteAddress }`) has the exposure
 * rule judge its peer; without one the request is taken as made in process.
 */
export function createFetchHandler(engine: Engine, options: FetchHandlerOptions = {}): FetchHandler {
  return async (request, info) => {
    const url = new URL(request.url);
    const peer = peerOf(request, info);
    const headers = headersOf(request.headers);
    // A Request carries where it was sent in its URL, not as a header: for a peer's request, that is the Host judged.
    if (peer !== undefined) headers.host ??= url.host;
    const engineRequest: EngineRequest = {
      method: request.method,
      url: url.pathname + url.search,
      headers,
      body: await fetchBody(request, options.decoders),
      signal: request.signal,
      peer,
    };
    return answer(engine, engineRequest);
  };
}

/**
 * `fetch` in process: a path (relative to `origin`), a URL or a Request, as
 * the global `fetch` takes them, answered by the engine with no socket. A
 * URL and a RequestInit with a text or bytes body skip the WHATWG Request,
 * which costs more than the engine's whole answer to a read; anything else
 * goes through `createFetchHandler`. Only the target's path and query are
 * read: the origin names nothing. Its answers to those hold their body in
 * memory (BufferedResponse): read back without a stream's cost.
 */
export function createInProcessFetch(engine: Engine, options: FetchHandlerOptions, origin: string) {
  const handler = createFetchHandler(engine, options);
  return async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    if (input instanceof Request) return handler(init === undefined ? input : new Request(input, init));
    const url = new URL(input, origin);
    const request = engineRequestOf(url, init ?? {});
    if (!request) return handler(new Request(url, init));
    return answer(engine, request, true);
  };
}
