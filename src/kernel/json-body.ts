import { parse as parseContentType } from 'content-type';
import { parseJson } from './exact-json.js';
import { ApiError } from './errors.js';
import type { BodyReader, EngineRequest } from './types.js';

const BOM = [0xef, 0xbb, 0xbf];
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** A JSON body's media type and charset, checked before a byte is read: 415 unless it is JSON in UTF-8. */
function checkJsonMediaType(header: string | undefined): void {
  let type: string | undefined;
  let charset: string | undefined;
  try {
    const parsed = parseContentType(header ?? '');
    type = parsed.type;
    charset = parsed.parameters.charset?.toLowerCase();
  } catch {
    // not a media type at all: refused below
  }
  if (type !== 'application/json') throw ApiError.of('unsupported_media_type', `Content-Type must be application/json, got '${header ?? 'none'}'.`);
  if (charset !== undefined && charset !== 'utf-8') throw ApiError.of('unsupported_media_type', `Unsupported charset '${charset}': send UTF-8 JSON.`);
}

/** Bytes as text, refused (415) unless they are UTF-8 (RFC 8259, section 8.1): a parser would otherwise store U+FFFD. */
function utf8Text(bytes: Uint8Array): string {
  try {
    return utf8.decode(bytes);
  } catch {
    throw ApiError.of('unsupported_media_type', 'Request body is not valid UTF-8: send UTF-8 JSON.');
  }
}

/**
 * A JSON body's value from its bytes (Content-Encoding undone): an empty body
 * is read as {} (the schema then names what is missing); refused are bytes
 * that are not UTF-8 (415), a byte order mark (400: strict parsers of other
 * servers refuse it, so a client that sends one should learn it here), too
 * deep a nesting, invalid JSON, and JSON that is not an object or array
 * (400). An int64 past 2^53 is kept exactly.
 */
export function parseJsonBody(bytes: Uint8Array): unknown {
  if (bytes.length === 0) return {};
  const text = utf8Text(bytes);
  if (bytes.length >= 3 && BOM.every((b, i) => bytes[i] === b))
    throw ApiError.of(
      'invalid_request',
      'Request body starts with a byte order mark (U+FEFF): JSON sent over a network must not have one (RFC 8259, section 8.1).',
    );
  checkJsonDepth(bytes);
  let value: unknown;
  try {
    value = parseJson(text);
  } catch (error) {
    throw ApiError.of('invalid_request', `Request body is not valid JSON: ${(error as Error).message}`);
  }
  if (value === null || typeof value !== 'object') throw ApiError.of('invalid_request', 'Request body must be a JSON object.');
  return value;
}

/**
 * Deepest nesting of arrays and objects accepted in a JSON body, on `/v1`
 * and the control plane (docs/limits.md). A NewPet is one level deep, a
 * fixture set three. Without a limit, a body within the size limit could
 * nest 50,000 levels: parsed fine, but every later recursive walk of it
 * (the journal serializing what was sent) would overflow the stack.
 */
export const MAX_JSON_DEPTH = 32;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const [OPEN_ARRAY, CLOSE_ARRAY, OPEN_OBJECT, CLOSE_OBJECT] = [0x5b, 0x5d, 0x7b, 0x7d];

/**
 * Refuses (400) JSON bytes nested deeper than `max` arrays and objects, before
 * they are parsed: one pass over the bytes, skipping strings. Called by
 * `parseJsonBody` (core/json-body.ts) on every JSON body the sandbox reads.
 */
function checkJsonDepth(raw: Uint8Array, max = MAX_JSON_DEPTH): void {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i] as number;
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) inString = true;
    else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      depth += 1;
      if (depth > max) throw ApiError.of('invalid_request', `Request body is nested deeper than ${max} levels of arrays and objects.`);
    } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) depth -= 1;
  }
}

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
