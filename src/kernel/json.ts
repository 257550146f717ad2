import { parse as losslessParse, type ParseOptions, stringify as losslessStringify } from 'lossless-json';
import { parse as parseContentType } from 'content-type';
import { ApiError } from './errors.js';
import { echo } from './echo.js';
import type { BodyReader, EngineRequest } from './types.js';

/**
 * JSON text whose integers are kept exactly, in and out.
 *
 * `JSON.parse` reads every number as a double, so an integer past
 * ±(2^53-1) (`Number.MAX_SAFE_INTEGER`) comes back rounded: an int64 such as
 * 9223372036854775807 would be stored and returned as 9223372036854775808.
 * Here such an integer is read as a `bigint` and written back as the same
 * bare integer literal; every other number stays a `number` (see `Int64` in
 * `store/types.ts`).
 *
 * The common case costs what it did: a text without a run of 16 digits
 * holds no integer a double could round (2^53 has 16 digits), so it goes to
 * `JSON.parse` after one quick scan; only the rest is parsed by
 * `lossless-json`. Writing tries `JSON.stringify` first, which throws a
 * TypeError on a `bigint`; only then does `lossless-json` write it.
 */

/** The shortest digit run that can be an integer a double rounds: 9007199254740993 has 16 digits. */
const LONG_DIGITS = /\d{16}/;
const INTEGER = /^-?\d+$/;

/**
 * Whether `text` must be parsed losslessly: it holds a run of 16 or more
 * digits (in a number, or in a string, which costs only the slower parse).
 * Ordinary bodies have none, and take the plain `JSON.parse`.
 */
export function needsExactParse(text: string): boolean {
  return LONG_DIGITS.test(text);
}

/** A number literal as held: an integer outside ±(2^53-1) as a bigint, any other number as `JSON.parse` reads it. */
function parseNumber(literal: string): number | bigint {
  const n = Number(literal);
  return Number.isSafeInteger(n) || !INTEGER.test(literal) ? n : BigInt(literal);
}

const LOSSLESS: ParseOptions = {
  parseNumber,
  // As `JSON.parse`: the last of duplicate keys wins (lossless-json throws by default).
  onDuplicateKey: ({ newValue }) => newValue,
};

/**
 * `JSON.parse`, except that an integer outside ±(2^53-1) becomes a `bigint`
 * with its exact value. Throws a SyntaxError for text that is not JSON.
 */
export function parseJson(text: string): unknown {
  return needsExactParse(text) ? losslessParse(text, null, LOSSLESS) : (JSON.parse(text) as unknown);
}

/**
 * `JSON.stringify`, except that a `bigint` is written as a bare integer
 * literal, digit for digit. The one serialiser of the sandbox's JSON: the
 * file store's commit log, snapshot, pages and export, response bodies, the
 * journal and recorded pacts all go through it, and so must any other
 * backend that keeps a pet's JSON text. `space` indents as `JSON.stringify`
 * does.
 */
export function stringifyJson(value: unknown, space?: number): string {
  try {
    // Called without a replacer or gap when there is none: V8's fastest path.
    return (space === undefined ? JSON.stringify(value) : JSON.stringify(value, null, space)) as string;
  } catch (error) {
    // The only TypeError JSON.stringify throws on the sandbox's acyclic values is for a bigint.
    if (!(error instanceof TypeError)) throw error;
  }
  return losslessStringify(value, null, space) as string;
}

/** Node's Buffer, where there is one: its byte count is native, and the store counts every pet it writes. */
const nodeBuffer = (globalThis as { Buffer?: { byteLength(text: string, encoding: 'utf8'): number } }).Buffer;

/** A string's length in UTF-8 bytes, counted as Node's Buffer counts it (a lone surrogate as the 3 bytes of U+FFFD), without a copy. */
function countUtf8(text: string): number {
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) continue;
    if (code < 0x800) bytes += 1;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      // A surrogate pair: two UTF-16 units, four bytes.
      bytes += 2;
      i++;
    } else bytes += 2;
  }
  return bytes;
}

/**
 * A string's length in UTF-8 bytes: Node's native count on Node (the
 * server's cost unchanged), the same count in JavaScript in a browser.
 */
export const utf8Length: (text: string) => number = nodeBuffer ? (text) => nodeBuffer.byteLength(text, 'utf8') : countUtf8;

/** The count without Node, exported for the test that holds it equal to Buffer's. */
export { countUtf8 };

const BOM = [0xef, 0xbb, 0xbf];
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

const JSON_ONLY: readonly string[] = ['application/json'];

/** A JSON body's media type and charset, checked before a byte is read: 415 unless it is one the route takes (JSON), in UTF-8. */
function checkJsonMediaType(header: string | undefined, accepted: readonly string[]): void {
  let type: string | undefined;
  let charset: string | undefined;
  try {
    const parsed = parseContentType(header ?? '');
    type = parsed.type;
    charset = parsed.parameters.charset?.toLowerCase();
  } catch {
    // not a media type at all: refused below
  }
  if (type === undefined || !accepted.includes(type))
    throw ApiError.of('unsupported_media_type', `Content-Type must be ${accepted.join(' or ')}, got ${echo(header ?? 'none')}.`);
  if (charset !== undefined && charset !== 'utf-8') throw ApiError.of('unsupported_media_type', `Unsupported charset ${echo(charset)}: send UTF-8 JSON.`);
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
export function jsonBytes(request: EngineRequest, limit: number, mediaTypes: readonly string[] = JSON_ONLY): Uint8Array | Promise<Uint8Array> {
  checkJsonMediaType(single(request.headers['content-type']), mediaTypes);
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
