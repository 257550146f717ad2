import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PetStore } from '../../../src/store/file/pet-store.js';
import { tempDir } from '../../support/harness.js';
import { createPet } from '../../support/create-pet.js';

const MAX = 2n ** 63n - 1n;
const MIN = -(2n ** 63n);

const opened: PetStore[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
});

async function open(file: string): Promise<PetStore> {
  const store = await PetStore.open({ file, seed: { seed: 1, count: 0 } });
  opened.push(store);
  return store;
}

async function closeAndOpen(store: PetStore, fold: boolean): Promise<PetStore> {
  await store.close({ fold });
  opened.splice(opened.indexOf(store), 1);
  return open(store.file);
}

const exported = async (store: PetStore) => [...store.exportPieces()].join('');

describe('a categoryId past 2^53 in the file store', () => {
  it('is held as the exact bigint, written digit for digit to the commit log, the snapshot, pages and the export', async () => {
    let store = await open(join(tempDir('petstore-int64-'), 'db.json'));
    const max = await createPet(store, { name: 'Max', categoryId: MAX });
    await createPet(store, { name: 'Min', categoryId: MIN, status: 'sold' });
    expect(max.categoryId).toBe(MAX);
    const texts = ['{"id":1,"name":"Max","categoryId":9223372036854775807}', '{"id":2,"name":"Min","categoryId":-9223372036854775808,"status":"sold"}'];
    expect(store.page(10).json).toBe(`[${texts.join(',')}]`);
    expect(await exported(store)).toBe(`{"nextId":3,"pets":[${texts.join(',')}]}`);
    expect(readFileSync(store.logFile, 'utf8')).toContain(texts[0]);
    expect(readFileSync(store.logFile, 'utf8')).toContain(texts[1]);

    // Replayed from the log alone (nothing folded into the snapshot).
    store = await closeAndOpen(store, false);
    expect(store.get(1)?.categoryId).toBe(MAX);
    expect(store.get(2)?.categoryId).toBe(MIN);
    expect(await exported(store)).toBe(`{"nextId":3,"pets":[${texts.join(',')}]}`);

    // Folded into the snapshot, one pet per line, and read back from it.
    store = await closeAndOpen(store, true);
    expect(readFileSync(store.file, 'utf8')).toBe(`{"format":1,"epoch":0,"nextId":3,"pets":[\n${texts.join(',\n')}\n]}\n`);
    expect(store.page(10, 'sold').json).toBe(`[${texts[1]}]`);
    expect(typeof store.get(1)?.categoryId).toBe('bigint');
  });

  it('a safe categoryId stays a number', async () => {
    const store = await open(join(tempDir('petstore-int64-'), 'db.json'));
    expect((await createPet(store, { name: 'Safe', categoryId: 9007199254740991 })).categoryId).toBe(9007199254740991);
    const again = await closeAndOpen(store, true);
    expect(again.get(1)?.categoryId).toBe(9007199254740991);
  });
});
