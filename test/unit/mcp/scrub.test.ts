/**
 * The admin token taken out by structure (src/mcp/scrub.ts): text values
 * only, whatever the token spells; JSON held as text parsed and written
 * again with its integers whole; XML names and JSON keys never touched.
 */
import { describe, expect, it } from 'vitest';
import { scrubText, scrubValue, TOKEN_MARK } from '../../../src/mcp/scrub.js';

describe('scrubbing the admin token', () => {
  it('replaces it inside text values, at any depth, and in JSON held as text; never a key, a number or a literal', () => {
    const value = {
      status: 403,
      ok: true,
      nothing: null,
      list: ['status', 'a status b', 7],
      nested: { status: { message: 'status' } },
      text: '{"status":"status","n":12345678901234567890}',
    };
    expect(scrubValue(value, 'status')).toEqual({
      status: 403,
      ok: true,
      nothing: null,
      list: [TOKEN_MARK, `a ${TOKEN_MARK} b`, 7],
      nested: { status: { message: TOKEN_MARK } },
      text: `{"status":"${TOKEN_MARK}","n":12345678901234567890}`,
    });
    // Written again, the JSON says the same (an integer-like key may come first: key order means nothing in JSON).
    for (const literal of ['true', 'null', '403'])
      expect(JSON.parse(scrubText(`{"a":${literal},"${literal}":1}`, literal))).toEqual({ a: JSON.parse(literal), [literal]: 1 });
  });

  it('in XML, only text and attribute values; elsewhere, every occurrence; nothing to do without a token', () => {
    expect(scrubText('<case case="a case">case</case>', 'case')).toBe(`<case case="a ${TOKEN_MARK}">${TOKEN_MARK}</case>`);
    expect(scrubText('| status | 200 |\n| a status | 1 |', 'status')).toBe(`| ${TOKEN_MARK} | 200 |\n| a ${TOKEN_MARK} | 1 |`);
    expect(scrubText('{"status": broken', 'status')).toBe(`{"${TOKEN_MARK}": broken`);
    expect(scrubValue({ status: 'status' }, '')).toEqual({ status: 'status' });
  });
});
