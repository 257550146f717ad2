import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { needsExactParse, parseJson, stringifyJson } from '../../../src/kernel/json.js';

const MAX = 9223372036854775807n;
const MIN = -9223372036854775808n;

describe('parseJson', () => {
  it.each([
    ['int64 max', '9223372036854775807', MAX],
    ['int64 min', '-9223372036854775808', MIN],
    ['2^53 + 1', '9007199254740993', 9007199254740993n],
    ['2^53', '9007199254740992', 9007199254740992n],
    ['-(2^53 + 1)', '-9007199254740993', -9007199254740993n],
    ['past int64', '18446744073709551616', 18446744073709551616n],
  ])('%s: an integer past 2^53 becomes the exact bigint', (_label, literal, value) => {
    const parsed = parseJson(`{"name":"Big","categoryId":${literal}}`) as { categoryId: unknown };
    expect(parsed.categoryId).toBe(value);
  });

  it.each([
    ['largest safe integer', '9007199254740991', 9007199254740991],
    ['smallest safe integer', '-9007199254740991', -9007199254740991],
    ['16 digits', '1234567890123456', 1234567890123456],
    ['a fraction with many digits', '0.12345678901234567', Number('0.12345678901234567')],
    ['an exponent', '9.2e18', 9.2e18],
    ['a large fraction', '12345678901234567.5', Number('12345678901234567.5')],
  ])('%s stays a number, as JSON.parse reads it', (_label, literal, value) => {
    expect(parseJson(`[${literal}]`)).toEqual([value]);
    expect(typeof (parseJson(`[${literal}]`) as unknown[])[0]).toBe('number');
  });

  it('reads a text with long digit runs like JSON.parse otherwise: strings, nesting, duplicate keys, __proto__', () => {
    const text = '{"a":"12345678901234567890","b":[1,{"c":null,"d":true}],"e":1,"e":2,"__proto__":{"x":1}}';
    expect(needsExactParse(text)).toBe(true);
    const parsed = parseJson(text) as Record<string, unknown>;
    expect(parsed).toEqual(JSON.parse(text));
    expect(Object.getPrototypeOf(parsed)).toBe(Object.prototype);
    expect(Object.keys(parsed)).toEqual(Object.keys(JSON.parse(text) as object));
  });

  it('refuses text that is not JSON with a SyntaxError, on both paths', () => {
    expect(() => parseJson('{"a":')).toThrow(SyntaxError);
    expect(() => parseJson('{"a":12345678901234567,')).toThrow(SyntaxError);
    expect(() => parseJson('[12345678901234567 1]')).toThrow(SyntaxError);
  });

  it('property: any JSON value, parsed exactly, is written back to the same text', () => {
    const withBig = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: 'small' },
        fc.bigInt({ min: MIN, max: MAX }).map((b) => (Number.isSafeInteger(Number(b)) ? Number(b) : b)),
        fc.string(),
        fc.boolean(),
        fc.constant(null),
        fc.array(tie('value'), { maxLength: 4 }),
        fc.dictionary(fc.string(), tie('value'), { maxKeys: 4 }),
      ),
    })).value;
    fc.assert(
      fc.property(withBig, (value) => {
        const text = stringifyJson(value);
        expect(parseJson(text)).toEqual(value);
        expect(stringifyJson(parseJson(text))).toBe(text);
      }),
    );
  });
});

describe('the plain path', () => {
  /** A NewPet as clients send it: any name without 16 digits in a row, a category of up to 15 digits. */
  const ordinaryBody = fc
    .record(
      {
        name: fc.string({ unit: 'grapheme' }).filter((s) => !/\d{16}/.test(s)),
        categoryId: fc.integer({ min: -(10 ** 15 - 1), max: 10 ** 15 - 1 }),
        status: fc.constantFrom('available', 'pending', 'sold'),
      },
      { requiredKeys: ['name', 'categoryId'] },
    )
    .map((pet) => JSON.stringify(pet));

  it('property: ordinary bodies take the plain JSON.parse path, and read as JSON.parse reads them', () => {
    fc.assert(
      fc.property(ordinaryBody, (text) => {
        expect(needsExactParse(text)).toBe(false);
        expect(parseJson(text)).toEqual(JSON.parse(text));
      }),
      { numRuns: 500 },
    );
  });

  it('property: any safe integer reads back as the same number, whichever path it takes', () => {
    fc.assert(
      fc.property(fc.maxSafeInteger(), (n) => {
        const value = (parseJson(`{"categoryId":${n}}`) as { categoryId: unknown }).categoryId;
        expect(value).toBe(n);
      }),
    );
  });
});

describe('stringifyJson', () => {
  it('writes a bigint as a bare integer literal, digit for digit', () => {
    expect(stringifyJson({ id: 1, name: 'Big', categoryId: MAX })).toBe('{"id":1,"name":"Big","categoryId":9223372036854775807}');
    expect(stringifyJson([{ categoryId: MIN }, 'x'])).toBe('[{"categoryId":-9223372036854775808},"x"]');
  });

  it('writes everything else exactly as JSON.stringify, indented or not', () => {
    const value = { a: [1, -0, 1.5, 'é\u2028"', null, true], b: { c: undefined, d: Number.NaN }, e: new Date(0) };
    expect(stringifyJson(value)).toBe(JSON.stringify(value));
    expect(stringifyJson(value, 2)).toBe(JSON.stringify(value, null, 2));
    expect(stringifyJson({ ...value, big: 2n ** 60n }, 2)).toBe(
      JSON.stringify({ ...value, big: 0 }, null, 2).replace('"big": 0', '"big": 1152921504606846976'),
    );
  });
});
