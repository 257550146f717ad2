import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createKeyMatcher } from '../../../src/kernel/auth.js';

describe('the API key matcher', () => {
  it('accepts exactly the configured keys, for any keys and tokens', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.string({ minLength: 1, maxLength: 12 }), { minLength: 1, maxLength: 4 }), fc.string({ maxLength: 12 }), (keys, other) => {
        const accepts = createKeyMatcher(keys);
        for (const key of keys) expect(accepts(key)).toBe(true);
        expect(accepts(other)).toBe(keys.includes(other));
        // Asked again: the remembered answer is the same.
        expect(accepts(other)).toBe(keys.includes(other));
      }),
      { numRuns: 300 },
    );
  });

  it('refuses a token that shares a key but one last character, or is a prefix of one', () => {
    const accepts = createKeyMatcher(['sandbox-key']);
    expect(accepts('sandbox-kez')).toBe(false);
    expect(accepts('sandbox-ke')).toBe(false);
    expect(accepts('sandbox-key ')).toBe(false);
  });
});
