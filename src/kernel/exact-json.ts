import { parse as losslessParse, type ParseOptions, stringify as losslessStringify } from 'lossless-json';

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
