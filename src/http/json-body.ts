import { isUtf8 } from 'node:buffer';
import { ApiError } from './errors.js';
import { checkJsonDepth } from './json-depth.js';

const BOM = [0xef, 0xbb, 0xbf];

const startsWithBom = (bytes: Buffer): boolean => bytes.length >= 3 && BOM.every((b, i) => bytes[i] === b);

/**
 * A JSON body's bytes, before they are decoded: refused unless they are
 * UTF-8 (RFC 8259, section 8.1), without a byte order mark, and nested no
 * deeper than the limit.
 *
 * Without this a parser would replace invalid bytes with U+FFFD and store
 * the result, and drop a BOM silently. A BOM is refused (400) rather than
 * ignored, as RFC 8259 allows either: strict parsers of other servers
 * refuse it, so a client that sends one should learn it here.
 */
export function checkJsonBytes(bytes: Buffer): void {
  if (!isUtf8(bytes)) throw ApiError.of('unsupported_media_type', 'Request body is not valid UTF-8: send UTF-8 JSON.');
  if (startsWithBom(bytes))
    throw ApiError.of(
      'invalid_request',
      'Request body starts with a byte order mark (U+FEFF): JSON sent over a network must not have one (RFC 8259, section 8.1).',
    );
  checkJsonDepth(bytes);
}
