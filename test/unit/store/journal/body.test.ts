import { isUtf8 as nodeIsUtf8 } from 'node:buffer';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { captureBytes, isUtf8, JOURNAL_BODY_LIMIT } from '../../../../src/store/journal/body.js';

/** What the journal kept of a request body when it read it with node:buffer (before it ran in a browser too). */
function withBuffer(bytes: Uint8Array) {
  const buffer = Buffer.from(bytes);
  const room = 3 * JOURNAL_BODY_LIMIT + 3;
  const head = buffer.toString('utf8', 0, Math.min(buffer.length, room));
  const utf8 = nodeIsUtf8(buffer);
  if (buffer.length <= room && head.length <= JOURNAL_BODY_LIMIT) return { text: head, size: buffer.length, truncated: false, utf8 };
  return { text: Buffer.from(head.slice(0, JOURNAL_BODY_LIMIT), 'utf8').toString('utf8'), size: buffer.length, truncated: true, utf8 };
}

/** Bytes that are mostly UTF-8 text, with stray bytes, a byte order mark and cut characters among them. */
const bodies = fc
  .array(
    fc.oneof(
      fc.string({ unit: 'binary', maxLength: 20 }).map((s) => new TextEncoder().encode(s)),
      fc.uint8Array({ maxLength: 6 }),
      fc.constant(Uint8Array.of(0xef, 0xbb, 0xbf)),
      fc.constant(Uint8Array.of(0xe2, 0x82)),
      fc.integer({ min: 1, max: 2 * JOURNAL_BODY_LIMIT }).map((n) => new TextEncoder().encode('€'.repeat(n))),
    ),
    { maxLength: 8 },
  )
  .map((parts) => Uint8Array.from(parts.flatMap((p) => [...p])));

describe('a request body kept in the journal', () => {
  it('is what node:buffer gave, for any bytes (text, UTF-8 or not, cut or whole)', () => {
    fc.assert(
      fc.property(bodies, (bytes) => {
        expect(captureBytes(bytes)).toStrictEqual(withBuffer(bytes));
        expect(isUtf8(bytes)).toBe(nodeIsUtf8(bytes));
      }),
      { numRuns: 400 },
    );
  });
});
