/** The length an answer's Content-Length states: its UTF-8 bytes, counted without encoding. */
import { describe, expect, it } from 'vitest';
import { utf8Length } from '../../../src/kernel/json.js';

describe('utf8Length', () => {
  it.each(['', 'plain ASCII', 'Zoë à Köln', '€ and ✓', 'a pet 🐕 and 🐈‍⬛', '\ud83d', 'x\udc36y', '\udc36\ud83d'])('counts %j as UTF-8 encodes it', (text) => {
    expect(utf8Length(text)).toBe(Buffer.byteLength(text));
  });
});
