import type { Engine } from '../engine/engine.js';
import { isEngineStream, type EngineHeaders, type EngineRequest, type EngineResponse, type EngineStream } from '../kernel/types.js';
import { fetchBody, type BodyDecoders } from './fetch-body.js';
import { engineRequestOf } from './fetch-init.js';
import { bufferedResponse } from './buffered-response.js';

export interface FetchHandlerOptions {
  /** Decoders of Content-Encodings beyond gzip and deflate (e.g. `br` on Node). */
  decoders?: BodyDecoders;
}

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
 * a large export) as a ReadableStream pulled as the caller reads.
 */
export function createFetchHandler(engine: Engine, options: FetchHandlerOptions = {}): (request: Request) => Promise<Response> {
  return async (request) => {
    const url = new URL(request.url);
    const engineRequest: EngineRequest = {
      method: request.method,
      url: url.pathname + url.search,
      headers: headersOf(request.headers),
      body: await fetchBody(request, options.decoders),
      signal: request.signal,
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
