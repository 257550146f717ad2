import type { EngineHeaders, EngineRequest } from '../kernel/types.js';

/** Methods fetch upper-cases (RFC 9110's and the Fetch standard's "normalize"); any other keeps its case. */
const NORMALIZED = new Set(['DELETE', 'GET', 'HEAD', 'OPTIONS', 'POST', 'PUT']);
const encoder = new TextEncoder();

const methodOf = (method = 'GET'): string => (NORMALIZED.has(method.toUpperCase()) ? method.toUpperCase() : method);

/** Headers of a RequestInit as a Headers object would list them: lower-case names, values trimmed, repeats joined. */
function headersOf(init: RequestInit['headers']): EngineHeaders {
  const out: Record<string, string> = {};
  const add = (name: string, value: string) => {
    const lower = name.toLowerCase();
    const trimmed = value.replace(/^[\t\n\r ]+|[\t\n\r ]+$/g, '');
    out[lower] = out[lower] === undefined ? trimmed : `${out[lower]}, ${trimmed}`;
  };
  if (init === undefined) return out;
  if (init instanceof Headers) init.forEach((value, name) => (out[name] = value));
  else if (Array.isArray(init)) for (const [name, value] of init as [string, string][]) add(name, value);
  else for (const name in init) add(name, String((init as Record<string, string>)[name]));
  return out;
}

/** A body fetch would send as these bytes, or undefined when it takes a Request to read it (a stream, a form, a blob). */
function bytesOf(body: NonNullable<RequestInit['body']>): Uint8Array | undefined {
  if (typeof body === 'string') return encoder.encode(body);
  if (body instanceof Uint8Array) return body;
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  return undefined;
}

/**
 * A request given as a URL and a RequestInit, as the engine takes it, made
 * without a WHATWG Request (which costs more than the engine's whole answer
 * to a read): the headers and method as fetch would send them, a text or
 * bytes body as is. Undefined when only a Request can say what would be sent
 * (a streamed, form or blob body, a Content-Encoding to undo): the caller
 * then makes one. The body's size is the caller's to judge.
 */
export function engineRequestOf(url: URL, init: RequestInit): EngineRequest | undefined {
  const headers = headersOf(init.headers);
  const method = methodOf(init.method);
  let body: Uint8Array | undefined;
  if (init.body !== undefined && init.body !== null) {
    if (method === 'GET' || method === 'HEAD') throw new TypeError('Request with GET/HEAD method cannot have body.');
    if (headers['content-encoding'] !== undefined) return undefined;
    body = bytesOf(init.body);
    if (body === undefined) return undefined;
    // An empty body is no body, as `Content-Length: 0` is on the server; an empty chunked one is a body, as there.
    if (body.length === 0 && headers['transfer-encoding'] === undefined) body = undefined;
  }
  return { method, url: url.pathname + url.search, headers, body, signal: init.signal ?? undefined };
}
