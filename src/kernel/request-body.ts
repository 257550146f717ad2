import { ApiError } from './errors.js';
import { checkJsonMediaType } from './json-body.js';
import type { BodyReader, EngineRequest } from './types.js';

/** The 413 of a body over `limit` bytes: one wording on every way in. */
export const tooLarge = (limit: number): ApiError => ApiError.of('payload_too_large', `Request body is larger than the limit of ${limit} bytes.`);

const single = (value: string | string[] | undefined): string | undefined => (Array.isArray(value) ? value[0] : value);

/**
 * A JSON body's bytes for a route that reads one, within that route's
 * `limit`: its media type checked first (415 before a byte is read), then
 * the bytes at hand judged against the limit, or read from the way in's
 * reader. Call it only for a request that has a body.
 */
export function jsonBytes(request: EngineRequest, limit: number): Uint8Array | Promise<Uint8Array> {
  checkJsonMediaType(single(request.headers['content-type']));
  return bodyBytes(request.body as Uint8Array | BodyReader, limit);
}

/** A body's bytes within `limit` (413 past it): at once when at hand, else from its reader. */
export function bodyBytes(body: Uint8Array | BodyReader, limit: number): Uint8Array | Promise<Uint8Array> {
  if (!(body instanceof Uint8Array)) return body.read(limit);
  if (body.length > limit) throw tooLarge(limit);
  return body;
}

/** A body's bytes as sent, within `limit` (413 past it): what proxy mode passes on. */
export function rawBytes(body: Uint8Array | BodyReader, limit: number): Uint8Array | Promise<Uint8Array> {
  if (!(body instanceof Uint8Array)) return body.raw(limit);
  if (body.length > limit) throw tooLarge(limit);
  return body;
}
