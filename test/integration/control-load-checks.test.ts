/**
 * A fixture set is loaded whole or not at all: a bad record (named by index
 * and field), duplicate ids or an id clash in append mode leave the
 * workspace byte for byte as it was.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { controlOf, type Control } from '../support/control-client.js';
import { startTestSandbox, type TestSandbox } from '../support/harness.js';

let sb: TestSandbox;
let ctl: Control;
beforeAll(async () => {
  sb = await startTestSandbox();
  ctl = controlOf(sb);
});
afterAll(() => sb.stop());

const exportText = async () => (await ctl('GET', '/export')).text;
const good = (id: number) => ({ id, name: `Pet ${id}`, categoryId: 1, status: 'available' });

/** Sets with one bad record, and what the 400 must name. */
const BAD_SETS: [string, unknown[], RegExp][] = [
  ['a record without name', [good(1), good(2), { id: 3, categoryId: 1 }], /Record 2 field 'name' is required/],
  ['an unknown status', [good(1), { ...good(2), status: 'lost' }], /Record 1 field 'status' must be one of: available, pending, sold/],
  ['a field the Pet schema does not allow', [{ ...good(1), colour: 'red' }], /Record 0 field 'colour' is not allowed/],
  ['an id below 1', [good(1), good(2), good(3), { ...good(4), id: 0 }], /Record 3 field 'id'/],
  ['a string categoryId', [good(1), { ...good(2), categoryId: '2' }], /Record 1 field 'categoryId'/],
  ['a categoryId past int64', [{ ...good(1), categoryId: 2 ** 70 }], /Record 0 field 'categoryId' must be an integer from -9223372036854775808/],
  ['a record that is not an object', [good(1), 'Rex'], /Record 1/],
];

describe('all or nothing', () => {
  it.each(BAD_SETS)('refuses a set with %s, naming index and field, loading nothing', async (_name, pets, message) => {
    await ctl('POST', '/reset', { json: { seed: 4, count: 6 } });
    const before = await exportText();
    const res = await ctl('POST', '/load', { json: { pets } });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/^Nothing was loaded\./);
    expect(res.body.message).toMatch(message);
    expect(await exportText()).toBe(before);
  });

  it('refuses duplicate ids, naming both records', async () => {
    const before = await exportText();
    const res = await ctl('POST', '/load', { json: { pets: [good(1), good(2), good(3), good(1)] } });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Nothing was loaded. Record 3 has id 1, already used by record 0.');
    expect(await exportText()).toBe(before);
  });

  it.each([
    { pets: 'Rex' },
    { pets: [], nextId: 0 },
    { generate: { seed: -1, count: 2 } },
    { generate: { seed: 1, count: 2_000_000 } },
    { generate: null },
    { generate: [1, 2] },
    { pets: null },
    { nextId: null, pets: [] },
  ])('refuses the malformed set %j', async (json) => {
    const before = await exportText();
    expect((await ctl('POST', '/load', { json })).status).toBe(400);
    expect(await exportText()).toBe(before);
  });
});

describe('append', () => {
  it('adds to the stored pets and moves nextId past the highest id', async () => {
    await ctl('POST', '/reset', { json: { seed: 1, count: 3 } });
    const res = await ctl('POST', '/load', { json: { mode: 'append', pets: [good(11), good(10)] } });
    expect(res.body).toMatchObject({ count: 5, nextId: 12 });
    const exported = (await ctl('GET', '/export')).body as { pets: { id: number }[] };
    expect(exported.pets.map((p) => p.id)).toEqual([1, 2, 3, 10, 11]);
    expect((await sb.op('createPet', '/pets', { method: 'POST', json: { name: 'After', categoryId: 1 } })).body.id).toBe(12);
  });

  it('never lowers nextId', async () => {
    await ctl('POST', '/reset', { json: { seed: 1, count: 3 } });
    const res = await ctl('POST', '/load', { json: { mode: 'append', nextId: 2, pets: [] } });
    expect(res.body).toMatchObject({ count: 3, nextId: 4 });
  });

  it('refuses the whole set when one id is already stored', async () => {
    await ctl('POST', '/reset', { json: { seed: 1, count: 3 } });
    const before = await exportText();
    const res = await ctl('POST', '/load', { json: { mode: 'append', pets: [good(20), good(2)] } });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/A pet with id 2 is already stored/);
    expect(await exportText()).toBe(before);
    expect((await sb.op('getPet', '/pets/20')).status).toBe(404);
  });

  it('appends a named fixture set', async () => {
    await ctl('POST', '/reset', { json: { empty: true } });
    await ctl('POST', '/load', { json: { mode: 'append', pets: [good(100)] } });
    const res = await ctl('POST', '/load', { json: { mode: 'append', fixture: 'every-status' } });
    expect(res.status).toBe(200);
    expect(res.body.count).toBeGreaterThan(1);
    expect((await sb.op('getPet', '/pets/100')).status).toBe(200);
  });
});
