/**
 * Reset, load and export: fixture sets are checked whole before anything is
 * written, and an export loads back to the same bytes.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startControlSandbox, type Control } from '../support/control-client.js';
import type { TestSandbox } from '../support/harness.js';

const FIXTURES = new URL('../../fixtures/', import.meta.url);
const shipped = readdirSync(FIXTURES)
  .filter((f) => f.endsWith('.json'))
  .map((f) => f.slice(0, -5))
  .sort();
const fixtureFile = (name: string) =>
  JSON.parse(readFileSync(new URL(`${name}.json`, FIXTURES), 'utf8')) as { pets?: { id: number }[]; generate?: { count: number } };

let sb: TestSandbox;
let ctl: Control;
beforeAll(async () => ({ sb, ctl } = await startControlSandbox()));
afterAll(() => sb.stop());

const exportText = async (key = 'key-a') => (await ctl('GET', '/export', { key })).text;

describe('reset', () => {
  it('generates count pets from seed, ids from 1, the same for the same seed', async () => {
    expect((await ctl('POST', '/reset', { key: 'key-a', json: { seed: 9, count: 12 } })).body).toMatchObject({ count: 12, nextId: 13 });
    await ctl('POST', '/reset', { key: 'key-b', json: { seed: 9, count: 12 } });
    expect(await exportText('key-a')).toBe(await exportText('key-b'));
    await ctl('POST', '/reset', { key: 'key-b', json: { seed: 10, count: 12 } });
    expect(await exportText('key-b')).not.toBe(await exportText('key-a'));
  });

  it('empties a workspace: no pets, next id 1', async () => {
    expect((await ctl('POST', '/reset', { key: 'key-a', json: { empty: true, count: 5 } })).body).toMatchObject({ count: 0, nextId: 1 });
    expect((await sb.op('listPets', '/pets', { key: 'key-a' })).body).toEqual([]);
    expect((await sb.op('createPet', '/pets', { key: 'key-a', method: 'POST', json: { name: 'First', categoryId: 1 } })).body.id).toBe(1);
  });

  it("defaults to the sandbox's --seed and --count", async () => {
    await ctl('POST', '/reset', { key: 'key-b', json: { seed: 1, count: 50 } });
    const explicit = await exportText('key-b');
    expect((await ctl('POST', '/reset', { key: 'key-b', json: {} })).body).toMatchObject({ count: 50, nextId: 51 });
    expect(await exportText('key-b')).toBe(explicit);
  });

  it.each([{ seed: -1 }, { count: 1_000_001 }, { count: 'ten' }, { seed: 1.5 }, { empty: 'yes' }, { seed: null }, { count: null }])(
    'refuses %j with 400 and changes nothing',
    async (json) => {
      const before = await exportText();
      const res = await ctl('POST', '/reset', { key: 'key-a', json });
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(/"(seed|count|empty)"/);
      expect(await exportText()).toBe(before);
    },
  );
});

describe('load by name', () => {
  it('lists exactly the fixture sets in fixtures/', async () => {
    expect((await ctl('GET', '/fixtures')).body).toEqual({ fixtures: shipped });
  });

  it.each(shipped)('loads the shipped set %s as the file says', async (name) => {
    const file = fixtureFile(name);
    const expected = file.generate?.count ?? file.pets?.length;
    const res = await ctl('POST', '/load', { key: 'key-b', json: { fixture: name } });
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(expected);
    const exported = (await ctl('GET', '/export', { key: 'key-b' })).body as { pets: { id: number }[] };
    if (file.pets) expect(exported.pets).toEqual([...file.pets].sort((a, b) => a.id - b.id));
  });

  it('answers 404 for an unknown set and 400 for a name that could leave the folder', async () => {
    const missing = await ctl('POST', '/load', { json: { fixture: 'no-such-set' } });
    expect(missing.status).toBe(404);
    expect(missing.body.message).toMatch(/no-such-set/);
    expect((await ctl('POST', '/load', { json: { fixture: '../package' } })).status).toBe(400);
    expect((await ctl('POST', '/load', { json: { fixture: 42 } })).status).toBe(400);
  });

  it.each([{}, { fixture: 'empty', pets: [] }, { pets: [], mode: 'merge' }])('refuses %j with 400', async (json) => {
    expect((await ctl('POST', '/load', { json })).status).toBe(400);
  });
});

describe('export and load', () => {
  it('export -> load -> export gives the same bytes, in the same or another workspace', async () => {
    await ctl('POST', '/reset', { key: 'key-a', json: { seed: 5, count: 30 } });
    await sb.op('createPet', '/pets', { key: 'key-a', method: 'POST', json: { name: 'Zoë 🐕', categoryId: 9007199254740991 } });
    await sb.op('createPet', '/pets', { key: 'key-a', method: 'POST', json: { status: 'sold', categoryId: 2, name: 'Keys out of order' } });
    const first = await exportText('key-a');
    expect(JSON.parse(first).nextId).toBe(33);
    const loaded = await ctl('POST', '/load', { key: 'key-a', body: first, headers: { 'content-type': 'application/json' } });
    expect(loaded.body).toMatchObject({ count: 32, nextId: 33 });
    expect(await exportText('key-a')).toBe(first);
    await ctl('POST', '/load', { key: 'key-b', body: first, headers: { 'content-type': 'application/json' } });
    expect(await exportText('key-b')).toBe(first);
  });

  it('keeps an exported nextId above the highest id (ids are not reused)', async () => {
    await ctl('POST', '/load', { key: 'key-a', json: { nextId: 40, pets: [{ id: 3, name: 'Rex', categoryId: 1 }] } });
    expect(JSON.parse(await exportText('key-a')).nextId).toBe(40);
    expect((await sb.op('createPet', '/pets', { key: 'key-a', method: 'POST', json: { name: 'Next', categoryId: 1 } })).body.id).toBe(40);
  });

  it('refuses a create once ids run out below 2^53 - 1 (no id is ever given twice), and stores nothing', async () => {
    const last = Number.MAX_SAFE_INTEGER - 1;
    await ctl('POST', '/load', { key: 'key-a', json: { pets: [{ id: last - 1, name: 'Penultimate', categoryId: 1 }] } });
    const create = () => sb.op('createPet', '/pets', { key: 'key-a', method: 'POST', json: { name: 'Next', categoryId: 1 } });
    expect((await create()).body.id).toBe(last);
    const refused = await create();
    expect(refused.status).toBe(400);
    expect(refused.body.message).toContain('No ids left');
    expect(JSON.parse(await exportText('key-a'))).toEqual({
      nextId: last + 1,
      pets: [
        { id: last - 1, name: 'Penultimate', categoryId: 1 },
        { id: last, name: 'Next', categoryId: 1 },
      ],
    });
  });

  it('refuses to load an id that leaves no next id', async () => {
    const before = await exportText('key-a');
    const res = await ctl('POST', '/load', {
      key: 'key-a',
      json: {
        pets: [
          { id: 1, name: 'A', categoryId: 1 },
          { id: Number.MAX_SAFE_INTEGER, name: 'B', categoryId: 1 },
        ],
      },
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toContain('Record 1 has id 9007199254740991');
    expect(await exportText('key-a')).toBe(before);
  });

  it('loads a generated set from the body', async () => {
    const res = await ctl('POST', '/load', { key: 'key-a', json: { generate: { seed: 2, count: 25 } } });
    expect(res.body).toMatchObject({ count: 25, nextId: 26 });
  });
});
