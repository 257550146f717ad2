import { parseJson } from '../../kernel/json.js';

/** Bodies longer than this many characters are kept truncated (docs/limits.md). */
export const JOURNAL_BODY_LIMIT = 4096;

/**
 * A body as the journal keeps it: its text, at most JOURNAL_BODY_LIMIT
 * characters, cut when it was captured, so that no entry holds more than
 * that whatever was sent or answered.
 */
export interface BodyText {
  readonly text: string;
  /** Length of the whole body: bytes as read for a request, characters of JSON for a response. */
  readonly size: number;
  /** Whether `text` is only the start of the body. */
  readonly truncated: boolean;
  /** False for bytes that were not UTF-8: their text (with U+FFFD for them) is never shown as a JSON value. */
  readonly utf8: boolean;
}

/**
 * Bytes V8 keeps for a flat string: a 16-byte header, then one byte a
 * character when every one is Latin-1 (V8 then stores it one byte wide, as
 * it does text decoded from ASCII or Latin-1 UTF-8), else two; 8-byte aligned.
 */
export function textBytes(text: string): number {
  const width = /[\u0100-\uffff]/.test(text) ? 2 : 1;
  return 16 + ((width * text.length + 7) & ~7);
}

/**
 * A copy of the start of `text` that does not keep `text` alive: V8 makes a
 * longer substring a view into its parent, so a 4 KiB slice of a 100 KiB
 * string would hold all 100 KiB. A lone surrogate left at the cut becomes U+FFFD.
 */
function detachedStart(text: string): string {
  return utf8.decode(encoder.encode(text.slice(0, JOURNAL_BODY_LIMIT)));
}

// The Encoding API rather than Buffer: the engine runs in a browser too. A byte order mark is kept, as sent.
const encoder = new TextEncoder();
const utf8 = new TextDecoder('utf-8', { ignoreBOM: true });
const strictUtf8 = new TextDecoder('utf-8', { ignoreBOM: true, fatal: true });

/** Whether bytes are well-formed UTF-8 (node:buffer's isUtf8, for any Uint8Array). */
export function isUtf8(bytes: Uint8Array): boolean {
  try {
    strictUtf8.decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/** A response body: the JSON text that was sent. */
export function captureText(text: string): BodyText {
  if (text.length <= JOURNAL_BODY_LIMIT) return { text, size: text.length, truncated: false, utf8: true };
  return { text: detachedStart(text), size: text.length, truncated: true, utf8: true };
}

/**
 * A request body: its raw bytes as read. Only the first bytes are decoded:
 * a UTF-16 code unit takes at most 3 bytes of UTF-8, so 3 x LIMIT (+3 for a
 * character cut at the end) always hold the LIMIT characters kept.
 */
export function captureBytes(bytes: Uint8Array): BodyText {
  const room = 3 * JOURNAL_BODY_LIMIT + 3;
  if (bytes.length > room) return { text: detachedStart(utf8.decode(bytes.subarray(0, room))), size: bytes.length, truncated: true, utf8: isUtf8(bytes) };
  // A body that fits is decoded once, strictly, which also tells whether it is UTF-8.
  let text: string;
  let wellFormed = true;
  try {
    text = strictUtf8.decode(bytes);
  } catch {
    text = utf8.decode(bytes);
    wellFormed = false;
  }
  if (text.length <= JOURNAL_BODY_LIMIT) return { text, size: bytes.length, truncated: false, utf8: wellFormed };
  return { text: detachedStart(text), size: bytes.length, truncated: true, utf8: wellFormed };
}

/**
 * A kept body as the control plane shows it: null when there was none, the
 * JSON value when the whole text parses, else a marker with the text
 * (`truncated: true` when it was cut, `false` when it is whole but not JSON).
 */
export function showBody(body: BodyText | undefined): unknown {
  if (!body) return null;
  if (!body.truncated && body.utf8) {
    try {
      return parseJson(body.text);
    } catch {
      // not JSON (malformed, incomplete, a byte order mark): shown as its text
    }
  }
  return { truncated: body.truncated, size: body.size, text: body.text };
}
