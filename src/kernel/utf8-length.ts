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
