import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSandbox, type TestSandbox, storedPets } from '../support/harness.js';
import { expectErrorNaming } from '../support/error-check.js';

interface Pet {
  id: number;
  name: string;
  categoryId: number;
  status?: string;
}

// 150 seeded pets: more than the maximum limit, so every bound is observable.
let sb: TestSandbox;
let stored: Pet[];
beforeAll(async () => {
  sb = await startTestSandbox(['--count', '150']);
  // The freshly seeded storage (data file or database), read directly, is the independent truth the answers are compared with.
  stored = (await storedPets(sb)) as Pet[];
});
afterAll(() => sb.stop());

const ids = (pets: Pet[]) => pets.map((p) => p.id);

describe('GET /v1/pets: limit', () => {
  it.each([
    ['(default)', '', 20],
    ['1', '?limit=1', 1],
    ['2', '?limit=2', 2],
    ['20', '?limit=20', 20],
    ['99', '?limit=99', 99],
    ['100', '?limit=100', 100],
  ])('limit %s returns the first pets by id ascending', async (_label, query, expected) => {
    const res = await sb.op('listPets', `/pets${query}`);
    expect(res.status).toBe(200);
    expect(ids(res.body)).toEqual(ids(stored.slice(0, expected)));
    expect(res.body).toEqual(stored.slice(0, expected));
  });

  it('answers a bare array of Pet with no paging metadata', async () => {
    const res = await sb.op('listPets', '/pets?limit=3');
    expect(Array.isArray(res.body)).toBe(true);
    for (const name of ['link', 'x-total-count', 'x-next', 'x-next-cursor']) expect(res.headers.get(name)).toBeNull();
  });

  it.each(['offset=5', 'page=2', 'cursor=abc', 'after=10'])('invents no paging: %s is ignored', async (extra) => {
    const plain = await sb.op('listPets', '/pets?limit=5');
    const paged = await sb.op('listPets', `/pets?limit=5&${extra}`);
    expect(paged.status).toBe(200);
    expect(paged.body).toEqual(plain.body);
  });

  it.each([
    ['0', 'limit=0'],
    ['101', 'limit=101'],
    ['-1', 'limit=-1'],
    ['abc', 'limit=abc'],
    ['1.5', 'limit=1.5'],
    ['empty', 'limit='],
    ['repeated', 'limit=5&limit=6'],
    ['2^63', 'limit=9223372036854775808'],
  ])('limit %s -> 400 Error naming limit', async (_label, query) => {
    expectErrorNaming(await sb.op('listPets', `/pets?${query}`), 400, 'invalid_request', 'limit');
  });

  // Only plain decimal integers are integers in a query string; number-like spellings are not silently read.
  it.each([
    ['hex', 'limit=0x10'],
    ['exponent', 'limit=1e1'],
    ['leading plus', 'limit=%2B5'],
    ['leading space', 'limit=%205'],
  ])('limit in %s notation -> 400 Error naming limit', async (_label, query) => {
    expectErrorNaming(await sb.op('listPets', `/pets?${query}`), 400, 'invalid_request', 'limit');
  });
});

describe('GET /v1/pets: status filter', () => {
  it.each(['available', 'pending', 'sold'])('status=%s returns only such pets, by id ascending', async (status) => {
    const expected = stored.filter((p) => p.status === status);
    expect(expected.length).toBeGreaterThan(20);
    const res = await sb.op('listPets', `/pets?status=${status}&limit=100`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(expected.slice(0, 100));
    const byDefault = await sb.op('listPets', `/pets?status=${status}`);
    expect(byDefault.body).toEqual(expected.slice(0, 20));
    const three = await sb.op('listPets', `/pets?limit=3&status=${status}`);
    expect(three.body).toEqual(expected.slice(0, 3));
  });

  it('pets without status have no status key and appear only unfiltered', async () => {
    const res = await sb.op('listPets', '/pets?limit=100');
    const bare = new Set(ids((res.body as Pet[]).filter((p) => !('status' in p))));
    expect(bare.size).toBeGreaterThan(0);
    for (const status of ['available', 'pending', 'sold']) {
      const filtered = await sb.op('listPets', `/pets?status=${status}&limit=100`);
      expect(ids(filtered.body).filter((id) => bare.has(id))).toEqual([]);
    }
    expect(res.text).not.toContain('null');
  });

  it.each([
    ['lost', 'status=lost'],
    ['upper case', 'status=AVAILABLE'],
    ['empty', 'status='],
    ['repeated', 'status=available&status=sold'],
  ])('status %s -> 400 Error naming status', async (_label, query) => {
    expectErrorNaming(await sb.op('listPets', `/pets?${query}`), 400, 'invalid_request', 'status');
  });
});

describe('GET /v1/pets on an empty store', () => {
  it('answers [] for every filter', async () => {
    const empty = await startTestSandbox(['--count', '0']);
    try {
      for (const query of ['', '?status=sold', '?limit=100']) {
        const res = await empty.op('listPets', `/pets${query}`);
        expect([res.status, res.body]).toEqual([200, []]);
      }
    } finally {
      await empty.stop();
    }
  });
});
