import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSandbox, type CallResult, type TestSandbox } from '../support/harness.js';
import { expectError, post } from '../support/error-check.js';

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.stop());

const DEPRECATION = {
  sunset: 'Thu, 05 Dec 2030 00:00:00 GMT',
  deprecation: '@1735689600',
  link: '</v1/pets>; rel="successor-version"',
};

function expectDeprecationHeaders(res: CallResult): void {
  expect({ sunset: res.headers.get('sunset'), deprecation: res.headers.get('deprecation'), link: res.headers.get('link') }).toEqual(DEPRECATION);
}

describe('GET /v1/pets/{petId}', () => {
  it.each([1, 2, 50])('seeded pet %i -> 200 with the same Pet the list shows', async (id) => {
    const list = await sb.op('listPets', '/pets?limit=100');
    const res = await sb.op('getPet', `/pets/${id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual((list.body as { id: number }[]).find((p) => p.id === id));
  });

  it('a created pet -> 200, an id not yet assigned -> 404', async () => {
    expectError(await sb.op('getPet', '/pets/51'), 404, 'not_found');
    const created = await sb.op('createPet', '/pets', post({ name: 'New', categoryId: 2, status: 'pending' }));
    expect(created.body.id).toBe(51);
    const res = await sb.op('getPet', '/pets/51');
    expect([res.status, res.body]).toEqual([200, created.body]);
  });

  it.each([
    ['unknown', '999999'],
    ['largest exact int64', '9007199254740991'],
    ['abc', 'abc'],
    ['-1', '-1'],
    ['0', '0'],
    ['1.5', '1.5'],
    ['2^53 + 1', '9007199254740993'],
    ['2^63', '9223372036854775808'],
    ['empty-looking', '%20'],
  ])('petId %s -> 404 Error', async (_label, petId) => {
    const res = await sb.op('getPet', `/pets/${petId}`);
    expectError(res, 404, 'not_found');
    expectDeprecationHeaders(res);
  });

  // Only a plain decimal names a pet: other number spellings must not alias pet 1.
  it.each([
    ['hex', '0x1'],
    ['exponent', '1e0'],
    ['leading plus', '%2B1'],
    ['leading space', '%201'],
  ])('petId in %s notation -> 404 Error', async (_label, petId) => {
    expectError(await sb.op('getPet', `/pets/${petId}`), 404, 'not_found');
  });
});

describe('GET /v1/pets/{petId}: deprecation headers on every response', () => {
  it.each([
    ['200', '/pets/1', {}, 200],
    ['401 missing key', '/pets/1', { key: null }, 401],
    ['401 wrong key', '/pets/1', { key: 'wrong-key' }, 401],
    ['401 before a malformed id', '/pets/abc', { key: null }, 401],
    ['404 unknown', '/pets/424242', {}, 404],
    ['404 malformed', '/pets/abc', {}, 404],
  ])('%s carries Sunset, Deprecation and Link', async (_label, path, init, status) => {
    const res = await sb.op('getPet', path, init);
    expect(res.status).toBe(status);
    expectDeprecationHeaders(res);
  });

  it.each([
    ['listPets', '/pets', {}],
    ['createPet', '/pets', post({ name: 'Fresh', categoryId: 1 })],
  ])('%s, which is not deprecated, carries none of them', async (operationId, path, init) => {
    const res = await sb.op(operationId, path, init);
    expect(res.status).toBeLessThan(300);
    for (const name of ['sunset', 'deprecation', 'link']) expect(res.headers.get(name)).toBeNull();
  });
});
