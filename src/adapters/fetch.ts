import { ApiError } from '../http/errors.js';
import { isEngineStream, type EngineHeaders, type EngineRequest, type EngineResponse, type EngineStream } from '../core/types.js';
import { readBodyBytes, type BodyDecoders } from './fetch-body.js';

/** What the fetch handler hands each request to: the engine's `handle`. */
export type EngineHandle = (request: EngineRequest) => EngineResponse | Promise<EngineResponse> | undefined;

export interface FetchHandlerOptions {
  /** The largest body accepted, in bytes, once its Content-Encoding is undone (`--body-limit`). */
  bodyLimit: number;
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

function toResponse(response: EngineResponse, head: boolean): Response {
  const headers = new Headers();
  for (const [name, value] of Object.entries(response.headers)) {
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else headers.set(name, String(value));
  }
  const { body } = response;
  const none = head || NO_BODY.has(response.status) || body === undefined;
  const payload =
    none ? null
    : isEngineStream(body) ? toReadable(body)
    : (body as string | Uint8Array<ArrayBuffer>);
  return new Response(payload, { status: response.status, headers });
}

/** An Error body answer for a request refused before the engine saw it (its body over the limit or not decodable). */
function refusal(error: ApiError): Response {
  const text = JSON.stringify(error.toBody());
  const headers = new Headers({ ...error.headers, 'Content-Type': 'application/json', 'Content-Length': String(encoder.encode(text).length) });
  return new Response(text, { status: error.status, headers });
}

/**
 * The engine as a fetch handler, `(Request) => Promise<Response>`: for
 * in-process use (the library's `sandbox.fetch`, MSW) and for runtimes that
 * speak fetch. The request's body is read and its Content-Encoding undone
 * within the body limit; the engine's answer becomes a Response, a stream
 * (the live journal, a large export) as a ReadableStream pulled as the
 * caller reads. A request the engine does not serve (no /v1, control or
 * probe path) is a 404 with the Error body.
 */
export function createFetchHandler(handle: EngineHandle, options: FetchHandlerOptions): (request: Request) => Promise<Response> {
  return async (request) => {
    const url = new URL(request.url);
    let body: Uint8Array | undefined;
    try {
      body = await readBodyBytes(request, options.bodyLimit, options.decoders);
    } catch (error) {
      if (error instanceof ApiError) return refusal(error);
      throw error;
    }
    const engineRequest: EngineRequest = {
      method: request.method,
      url: url.pathname + url.search,
      headers: headersOf(request.headers),
      body,
      signal: request.signal,
    };
    const response = await handle(engineRequest);
    if (!response) return refusal(ApiError.of('not_found', `No route ${request.method} ${url.pathname}. The Pet Store interface is served under /v1.`));
    return toResponse(response, request.method === 'HEAD');
  };
}
