import type { Violation } from '../../kernel/operation.js';

/** The response header that lists what a proxied exchange broke of the spec (Prism's is `sl-violations`). */
export const VIOLATIONS_HEADER = 'Sandbox-Violations';

/** Most bytes of the header's value: proxies and clients commonly refuse a response head past 8-16 KiB. */
export const VIOLATIONS_HEADER_LIMIT = 4096;

/** Non-ASCII escaped as JSON `\uXXXX`: a header value carries ASCII only, and the text stays valid JSON. */
const ascii = (text: string) => text.replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/**
 * The header's value: a JSON array of violations (`at`, `in`, `name`,
 * `message`), in ASCII, one line. When they do not fit in
 * VIOLATIONS_HEADER_LIMIT bytes, the first that do are listed, followed by
 * `{"more": n}` naming how many were left out; the journal keeps them all.
 * Undefined when there are none: a valid exchange gets no header.
 */
export function violationsHeader(violations: readonly Violation[]): string | undefined {
  if (violations.length === 0) return undefined;
  const parts: string[] = [];
  let length = 2;
  for (const [i, violation] of violations.entries()) {
    const part = ascii(JSON.stringify(violation));
    const more = i + 1 < violations.length ? `{"more":${violations.length - i - 1}}`.length + 1 : 0;
    if (length + part.length + 1 + more > VIOLATIONS_HEADER_LIMIT) {
      parts.push(`{"more":${violations.length - i}}`);
      break;
    }
    parts.push(part);
    length += part.length + 1;
  }
  return `[${parts.join(',')}]`;
}
