/**
 * The credential of a request refused for its key, as the admin's journal
 * of unauthenticated requests shows it: never a whole key.
 */
import { describe, expect, it } from 'vitest';
import { maskedCredential } from '../../../src/kernel/auth.js';

describe('maskedCredential', () => {
  it.each([
    [undefined, 'none'],
    ['', 'none'],
    ['Bearer wrong-key', 'Bearer wr…(9 characters)'],
    ['bearer   0123456789abcdef0123', 'Bearer 0123…(20 characters)'],
    // A short key shows none of its characters: a quarter of 3 is none.
    ['Bearer abc', 'Bearer …(3 characters)'],
    ['Bearer', 'Bearer (empty)'],
    ['Basic eDp5', 'Basic …'],
    ['Token', 'malformed …'],
    ['<script> x', 'malformed …'],
  ])('%j shows as %j', (header, shown) => {
    expect(maskedCredential(header)).toBe(shown);
  });

  it('never holds more than 4 characters of a key, however long', () => {
    const key = 'k'.repeat(4) + 'SECRET'.repeat(100);
    const shown = maskedCredential(`Bearer ${key}`);
    expect(shown).toBe('Bearer kkkk…(604 characters)');
    expect(shown).not.toContain('S');
  });
});
