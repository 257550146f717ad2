import { parse as parseContentType } from 'content-type';
import { parseJson } from './exact-json.js';
import { ApiError } from './errors.js';
import { checkJsonDepth } from './json-depth.js';

const BOM = [0xef, 0xbb, 0xbf];
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** A JSON body's media type and charset, checked before a byte is read: 415 unless it is JSON in UTF-8. */
export function checkJsonMediaType(header: string | undefined): void {
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
