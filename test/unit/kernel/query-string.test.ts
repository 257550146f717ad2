import { parse } from 'node:querystring';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseQuery } from '../../../src/kernel/query-string.js';

/** Node's parse as a plain object, to compare with toStrictEqual (both have no prototype). */
const node = (query: string) => parse(query);

/** Query strings built from the characters that matter: separators, `+`, escapes valid, invalid and cut short, and non-ASCII. */
const piece = fc.oneof(
  fc.constantFrom(
    '&',
    '=',
    '+',
    '%',
    '%2',
    '%zz',
    '%41',
    '%2B',
    '%26',
    '%3D',
    '%E9',
    '%C3%A9',
    '%F0%9F',
    '%80',
    '%ff',
    '__proto__',
    'a',
    'b',
    'é',
    '😀',
    '\ud800',
    ' ',
    '',
  ),
  fc.string({ maxLength: 4, unit: 'binary' }),
  fc.array(fc.constantFrom(...'0123456789abcdefABCDEFg'), { maxLength: 3 }).map((h) => `%${h.join('')}`),
);
const query = fc.array(piece, { maxLength: 24 }).map((parts) => parts.join(''));

describe('parseQuery', () => {
  // 20,000 runs, a few seconds alone: generous room for a loaded machine.
  it('parses any query string exactly as node:querystring', { timeout: 120_000 }, () => {
    fc.assert(
      fc.property(query, (q) => {
        expect(parseQuery(q)).toStrictEqual(node(q));
      }),
      { numRuns: 20000 },
    );
  });

  it.each([
    ['repeated names', 'a=1&a=2&b&a=3'],
    ['plus as space, an escaped plus kept', 'q=a+b%2Bc'],
    ['malformed escapes', 'x=%zz&y=%E9&z=%&w=%4'],
    ['an escape cut short with a valid one', 'n=%E9%41&m=é%41'],
    ['empty pairs and names', '&&=&=v&k=&'],
    ['a name that is an object key', '__proto__=1&constructor=2'],
  ])('%s', (_label, q) => {
    expect(parseQuery(q)).toStrictEqual(node(q));
  });

  it('keeps the first 1000 pairs, empty ones counted, as node:querystring', () => {
    const q = Array.from({ length: 1200 }, (_, i) => (i % 7 === 0 ? '' : `k${i}=${i}`)).join('&');
    const parsed = parseQuery(q);
    expect(parsed).toStrictEqual(node(q));
    expect(Object.keys(parsed).length).toBeLessThan(1000);
    expect(parsed.k998).toBe('998');
    expect(parsed.k1000).toBeUndefined();
  });
});
