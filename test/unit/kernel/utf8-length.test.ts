import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { countUtf8, utf8Length } from '../../../src/kernel/json.js';

describe('utf8Length', () => {
  it('counts as Buffer.byteLength does, without Node too, for any string (lone surrogates included)', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.oneof(fc.constantFrom('\ud800', '\udc00', 'é', '€', '😀'), fc.constantFrom(...'ab{}"')), maxLength: 30 }),
        fc.string({ unit: 'binary' }),
        (a, b) => {
          for (const text of [a, b, a + b]) {
            expect(countUtf8(text)).toBe(Buffer.byteLength(text, 'utf8'));
            expect(utf8Length(text)).toBe(Buffer.byteLength(text, 'utf8'));
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
