import { describe, expect, it } from 'vitest';
import { parseJson } from '../../../src/kernel/json.js';
import { withExactInt64 } from '../../../src/openapi/json-schema.js';
import { loadSpec } from '../../../src/openapi/load-spec.js';
import { createValidators } from '../../../src/openapi/validate.js';
import { formatIssues } from '../../../src/kernel/issues.js';

const spec = loadSpec();
const validators = createValidators(spec);
const createPet = validators.request(spec.operations.get('createPet') as NonNullable<ReturnType<typeof spec.operations.get>>);
const checkPet = validators.schema('/components/schemas/Pet');

/** The body check of createPet on a body's JSON text, parsed as the sandbox parses it. */
const check = (categoryId: string) => createPet.body(parseJson(`{"name":"Rex","categoryId":${categoryId}}`));

describe('int64 in bodies', () => {
  it.each(['9223372036854775807', '-9223372036854775808', '9007199254740993', '9007199254740991', '0', '-1'])('%s is accepted, kept exactly', (digits) => {
    const checked = check(digits);
    expect(checked.ok).toBe(true);
    expect(String((checked as { value: { categoryId: unknown } }).value.categoryId)).toBe(digits);
  });

  it.each([
    ['2^63', '9223372036854775808'],
    ['-(2^63) - 1', '-9223372036854775809'],
    ['2^64', '18446744073709551616'],
    ['an exponent past 2^53 (its digits went through a double)', '9.2e18'],
    ['1e400', '1e400'],
  ])('%s is refused, naming the field and the range', (_label, digits) => {
    const checked = check(digits);
    expect(checked.ok).toBe(false);
    const message = formatIssues((checked as { issues: Parameters<typeof formatIssues>[0] }).issues);
    expect(message).toBe(
      "Request body field 'categoryId' must be an integer from -9223372036854775808 to 9223372036854775807 (past ±9007199254740991, written as plain digits).",
    );
  });

  it.each([['"1"'], ['1.5'], ['null'], ['true'], ['[1]']])('%s is refused as not an integer', (value) => {
    const checked = check(value);
    expect(checked.ok).toBe(false);
    expect(formatIssues((checked as { issues: Parameters<typeof formatIssues>[0] }).issues)).toBe("Request body field 'categoryId' must be integer.");
  });

  it('a bigint keeps the bounds of its schema node (Pet.id has minimum 1)', () => {
    expect(checkPet({ id: 1, name: 'Rex', categoryId: 2n ** 62n })).toEqual([]);
    expect(checkPet({ id: -(2n ** 62n), name: 'Rex', categoryId: 1 })).toEqual([{ in: 'value', name: 'id', message: 'is out of range' }]);
    expect(checkPet({ id: 0, name: 'Rex', categoryId: 1 })).toHaveLength(1);
  });
});

describe('withExactInt64', () => {
  it('replaces type integer + format int64 by the x-int64 keyword, keeps every other keyword and node', () => {
    const schema = { type: 'object', properties: { a: { type: 'integer', format: 'int64', minimum: 1 }, b: { type: 'integer', format: 'int32' } } };
    expect(withExactInt64(schema)).toEqual({
      type: 'object',
      properties: { a: { 'x-int64': true, minimum: 1 }, b: { type: 'integer', format: 'int32' } },
    });
  });
});
