import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { encodeRecord } from '../../../src/store/file/commit-log.js';
import type { StoreFailure } from '../../../src/kernel/store-errors.js';
import { PetStore, type PetStoreOptions } from '../../../src/store/file/pet-store.js';
import { MAX_ID } from '../../../src/store/rules.js';
import { StoreError } from '../../../src/store/types.js';
import { tempDir } from '../../support/harness.js';
import { createPet } from '../../support/create-pet.js';

const opened: PetStore[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
});

async function openStore(file: string, options: Partial<PetStoreOptions> = {}): Promise<PetStore> {
  const store = await PetStore.open({ file, seed: { seed: 1, count: 10 }, ...options });
  opened.push(store);
  return store;
}

const fileIn = () => join(tempDir('petstore-unit-'), 'db.json');

/** Closes a store (so its writes are on disk) and opens the file again. */
async function reopen(store: PetStore, options: Partial<PetStoreOptions> = {}): Promise<PetStore> {
  await store.close();
  opened.splice(opened.indexOf(store), 1);
  return openStore(store.file, options);
}

describe('PetStore', () => {
  it('seeds a fresh file and writes it at once', async () => {
    const store = await openStore(fileIn());
    expect([store.size, store.nextId]).toEqual([10, 11]);
    expect(existsSync(store.file)).toBe(true);
    expect(JSON.parse(readFileSync(store.file, 'utf8')).pets).toEqual(store.all());
  });

  it('lists by id ascending, filters by status, gets by id', async () => {
    const store = await openStore(fileIn());
    expect(store.list(3).map((p) => p.id)).toEqual([1, 2, 3]);
    const sold = store.list(100, 'sold');
    expect(sold).toEqual(store.all().filter((p) => p.status === 'sold'));
    expect(store.get(4)).toEqual(store.all()[3]);
    expect(store.get(11)).toBeUndefined();
  });

  it('a page is the list and its JSON text, fresh after every create and replace', async () => {
    const store = await openStore(fileIn());
    const matches = (limit: number, status?: 'available' | 'pending' | 'sold') => {
      const page = store.page(limit, status);
      expect(page.pets).toEqual(store.list(limit, status));
      expect(page.json).toBe(JSON.stringify(store.list(limit, status)));
      return page;
    };
    const before = matches(100);
    matches(100, 'sold');
    expect(store.page(100)).toBe(before);
    await createPet(store, { name: 'Newcomer', categoryId: 2, status: 'sold' });
    expect(matches(100).pets.at(-1)?.name).toBe('Newcomer');
    expect(matches(100, 'sold').pets.at(-1)?.name).toBe('Newcomer');
    await store.replace([{ id: 7, name: 'Only', categoryId: 1 }]);
    expect(matches(100).json).toBe('[{"id":7,"name":"Only","categoryId":1}]');
    expect(matches(100, 'sold').json).toBe('[]');
    for (let limit = 1; limit <= 100; limit++) matches(limit);
  });

  it('creates with the next id, keeps no status key when none is given, answers the JSON text it stored, and survives a reopen', async () => {
    const store = await openStore(fileIn());
    const { pet: a, json, byteLength } = await store.createText({ name: 'A', categoryId: 1 });
    expect([json, byteLength]).toEqual(['{"id":11,"name":"A","categoryId":1}', 35]);
    const b = await createPet(store, { name: 'B', categoryId: 2, status: 'pending' });
    expect([a, b]).toEqual([
      { id: 11, name: 'A', categoryId: 1 },
      { id: 12, name: 'B', categoryId: 2, status: 'pending' },
    ]);
    expect('status' in a).toBe(false);
    const again = await reopen(store);
    expect([again.get(11), again.get(12), again.nextId]).toEqual([a, b, 13]);
    expect(again.list(100, 'pending')).toContainEqual(b);
  });

  it('parallel creates get distinct ids and all reach the disk', async () => {
    const store = await openStore(fileIn(), { seed: { seed: 1, count: 0 } });
    const pets = await Promise.all(Array.from({ length: 100 }, (_, i) => createPet(store, { name: `p${i}`, categoryId: i })));
    expect(new Set(pets.map((p) => p.id)).size).toBe(100);
    const again = await reopen(store);
    expect(again.all()).toEqual([...pets].sort((x, y) => x.id - y.id));
  });

  /** Creates `n` pets one after the other, then the pets in the snapshot and the records in the log. */
  async function createAndCount(store: PetStore, n: number): Promise<{ snapshot: number; log: number }> {
    for (let i = 0; i < n; i++) await createPet(store, { name: `c${i}`, categoryId: 1 });
    await store.flush();
    const snapshot = (JSON.parse(readFileSync(store.file, 'utf8')) as { pets: unknown[] }).pets.length;
    const log = existsSync(`${store.file}.log`) ? readFileSync(`${store.file}.log`, 'utf8').split('\n').filter(Boolean).length : 0;
    return { snapshot, log };
  }

  it('folds the log into the snapshot once it holds more than compactAfter records (a store smaller than that)', async () => {
    const store = await openStore(fileIn(), { seed: { seed: 1, count: 2 }, compactAfter: 3 });
    expect(await createAndCount(store, 3)).toEqual({ snapshot: 2, log: 3 });
    expect(await createAndCount(store, 1)).toEqual({ snapshot: 6, log: 0 });
    expect((await reopen(store)).size).toBe(6);
  });

  it('waits for as many records as the snapshot holds pets when that is more than compactAfter: a fold costs the same per create at any size', async () => {
    const store = await openStore(fileIn(), { compactAfter: 3 });
    expect(await createAndCount(store, 10)).toEqual({ snapshot: 10, log: 10 });
    expect(await createAndCount(store, 1)).toEqual({ snapshot: 21, log: 0 });
    // The next fold waits for 21 more records.
    expect(await createAndCount(store, 21)).toEqual({ snapshot: 21, log: 21 });
    expect(await createAndCount(store, 1)).toEqual({ snapshot: 43, log: 0 });
    expect((await reopen(store)).size).toBe(43);
  });

  it('replace swaps every pet, voids the old log and never lowers nextId below max id + 1', async () => {
    const store = await openStore(fileIn());
    await createPet(store, { name: 'Logged', categoryId: 1 });
    await store.replace([
      { id: 5, name: 'Five', categoryId: 1 },
      { id: 2, name: 'Two', categoryId: 1 },
    ]);
    expect(store.all().map((p) => p.id)).toEqual([2, 5]);
    expect(store.nextId).toBe(6);
    // Lets the flusher settle first; the test below covers a write issued without this pause.
    await store.flush();
    await store.replace([{ id: 1, name: 'One', categoryId: 1 }], 40);
    expect(store.nextId).toBe(40);
    const again = await reopen(store);
    expect(again.all()).toEqual([{ id: 1, name: 'One', categoryId: 1 }]);
    expect((await createPet(again, { name: 'Next', categoryId: 1 })).id).toBe(40);
  });

  it('a replace issued the moment the previous one resolves is written too', async () => {
    const store = await openStore(fileIn());
    await store.replace([{ id: 5, name: 'Five', categoryId: 1 }]);
    // No await in between: this runs in the continuation of the first replace.
    void store.replace([{ id: 1, name: 'One', categoryId: 1 }], 40);
    const again = await reopen(store);
    expect(again.all()).toEqual([{ id: 1, name: 'One', categoryId: 1 }]);
    expect(again.nextId).toBe(40);
  });

  it('ignores a torn last log line (an unacknowledged write)', async () => {
    const file = fileIn();
    const store = await openStore(file, { seed: { seed: 1, count: 0 } });
    await createPet(store, { name: 'Whole', categoryId: 1 });
    await store.close();
    opened.splice(0);
    writeFileSync(`${file}.log`, readFileSync(`${file}.log`, 'utf8') + '{"e":0,"pet":{"id":2,"na');
    const again = await openStore(file);
    expect(again.all()).toEqual([{ id: 1, name: 'Whole', categoryId: 1 }]);
    expect((await createPet(again, { name: 'Next', categoryId: 1 })).id).toBe(2);
  });

  it('sorts records stored out of order', async () => {
    const file = fileIn();
    writeFileSync(
      file,
      JSON.stringify({
        format: 1,
        epoch: 0,
        nextId: 4,
        pets: [
          { id: 3, name: 'c', categoryId: 1 },
          { id: 1, name: 'a', categoryId: 1 },
        ],
      }),
    );
    expect((await openStore(file)).list(10).map((p) => p.id)).toEqual([1, 3]);
  });

  it.each([
    ['not JSON', '{"format":', /not valid JSON/],
    ['another shape', '{"pets":{}}', /not a pet store data file/],
    [
      'duplicate ids',
      JSON.stringify({
        format: 1,
        epoch: 0,
        nextId: 2,
        pets: [
          { id: 1, name: 'a', categoryId: 1 },
          { id: 1, name: 'b', categoryId: 1 },
        ],
      }),
      /duplicate pet id 1/,
    ],
  ])('refuses a file that is %s, naming it, and leaves it untouched', async (_label, content, message) => {
    const file = fileIn();
    writeFileSync(file, content);
    const error = await PetStore.open({ file, seed: { seed: 1, count: 10 } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreError);
    expect((error as Error).message).toContain(file);
    expect((error as Error).message).toMatch(message);
    expect(readFileSync(file, 'utf8')).toBe(content);
  });

  it('refuses a record the checker rejects, naming its index', async () => {
    const file = fileIn();
    writeFileSync(
      file,
      JSON.stringify({
        format: 1,
        epoch: 0,
        nextId: 3,
        pets: [
          { id: 1, name: 'ok', categoryId: 1 },
          { id: 2, name: 7, categoryId: 1 },
        ],
      }),
    );
    const checkPet = (pet: unknown) => (typeof (pet as { name?: unknown }).name === 'string' ? [] : ['name must be a string']);
    await expect(PetStore.open({ file, seed: { seed: 1, count: 0 }, checkPet })).rejects.toThrow(/index 1.*name must be a string/);
  });

  it('refuses writes once closed', async () => {
    const store = await openStore(fileIn());
    await store.close();
    expect(() => createPet(store, { name: 'Late', categoryId: 1 })).toThrow(StoreError);
  });

  it('a create is visible only once it is durable', async () => {
    const store = await openStore(fileIn());
    const pending = createPet(store, { name: 'Pending', categoryId: 1 });
    expect(store.get(11)).toBeUndefined();
    expect(store.list(100).map((p) => p.name)).not.toContain('Pending');
    expect(store.size).toBe(10);
    const pet = await pending;
    expect(store.get(11)).toEqual(pet);
    expect(store.size).toBe(11);
  });

  it('refuses a create past the pet quota or the byte quota, counting creates still waiting, and stores nothing', async () => {
    const store = await openStore(fileIn(), { quota: { pets: 12, bytes: 10_000 } });
    const results = await Promise.allSettled([1, 2, 3].map((n) => createPet(store, { name: `q${n}`, categoryId: 1 })));
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'rejected']);
    const refused = (results[2] as PromiseRejectedResult).reason as StoreFailure;
    expect([refused.code, refused.message]).toEqual(['quota_exceeded', expect.stringMatching(/quota of 12 pets.*Nothing was stored/)]);
    expect(store.size).toBe(12);
    const bytes = await openStore(fileIn(), { quota: { pets: 100, bytes: 2_000 } });
    const big = await createPet(bytes, { name: 'x'.repeat(2_000), categoryId: 1 }).catch((e: unknown) => e);
    expect((big as StoreFailure).code).toBe('quota_exceeded');
    expect(bytes.size).toBe(10);
    expect(bytes.bytes).toBeLessThanOrEqual(2_000);
  });

  it('refuses a replace or an append past the quota and changes nothing', async () => {
    const store = await openStore(fileIn(), { quota: { pets: 12, bytes: 1_000_000 } });
    const before = [...store.all()];
    const many = Array.from({ length: 13 }, (_, i) => ({ id: i + 1, name: `p${i}`, categoryId: 1 }));
    await expect(store.replace(many)).rejects.toMatchObject({ code: 'quota_exceeded' });
    await expect(store.append(many.slice(0, 3).map((p) => ({ ...p, id: p.id + 100 })))).rejects.toMatchObject({ code: 'quota_exceeded' });
    expect(store.all()).toEqual(before);
  });

  it('never gives an id past 2^53 - 2, counting creates still waiting', async () => {
    const store = await openStore(fileIn());
    await store.replace([{ id: MAX_ID - 1, name: 'Almost', categoryId: 1 }]);
    const results = await Promise.allSettled([createPet(store, { name: 'Last', categoryId: 1 }), createPet(store, { name: 'Beyond', categoryId: 1 })]);
    expect(results[0]).toMatchObject({ status: 'fulfilled', value: { id: MAX_ID } });
    expect(results[1]).toMatchObject({ status: 'rejected', reason: { code: 'invalid_request', message: expect.stringMatching(/No ids left/) } });
  });

  it('append refuses an id already stored, at the moment it runs', async () => {
    const store = await openStore(fileIn());
    await expect(store.append([{ id: 3, name: 'Clash', categoryId: 1 }])).rejects.toMatchObject({
      code: 'invalid_request',
      message: expect.stringMatching(/id 3 is already stored/),
    });
    await store.append([{ id: 30, name: 'Fine', categoryId: 1 }]);
    expect([store.get(30)?.name, store.nextId]).toEqual(['Fine', 31]);
  });

  it('moves a log without a data file aside instead of replaying it into fresh pets', async () => {
    const file = fileIn();
    writeFileSync(`${file}.log`, encodeRecord(JSON.stringify({ e: 0, pet: { id: 11, name: 'Orphan', categoryId: 1 } })));
    const store = await openStore(file);
    expect(store.size).toBe(10);
    expect(existsSync(`${file}.log`)).toBe(false);
  });

  it('reads a data file written by hand (not one pet per line)', async () => {
    const file = fileIn();
    writeFileSync(file, JSON.stringify({ format: 1, epoch: 2, nextId: 9, pets: [{ id: 8, name: 'Hand', categoryId: 1 }] }, null, 2));
    const store = await openStore(file);
    expect([store.all(), store.nextId, store.epoch]).toEqual([[{ id: 8, name: 'Hand', categoryId: 1 }], 9, 2]);
  });
});
