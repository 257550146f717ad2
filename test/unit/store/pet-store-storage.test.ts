/**
 * The store on a real full or read-only file system (a small tmpfs): a
 * failed write leaves no trace in memory or on disk, the store works again
 * once storage is back, and everything acknowledged survives a reopen.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { StoreFailure } from '../../../src/kernel/store-errors.js';
import { PetStore, type PetStoreOptions } from '../../../src/store/file/pet-store.js';
import type { Pet } from '../../../src/store/types.js';
import { mountTmpfs, tmpfsUnavailable, type Tmpfs } from '../../support/tmpfs.js';
import { createPet } from '../../support/create-pet.js';

let fs: Tmpfs;
const stores: PetStore[] = [];
beforeEach(() => {
  if (!tmpfsUnavailable) fs = mountTmpfs(1024 * 1024);
});
afterEach(async () => {
  await Promise.all(stores.splice(0).map((s) => s.close().catch(() => undefined)));
  fs?.unmount();
});

async function open(options: Partial<PetStoreOptions> = {}): Promise<PetStore> {
  const store = await PetStore.open({ file: join(fs.dir, 'db.json'), seed: { seed: 1, count: 20 }, ...options });
  stores.push(store);
  return store;
}

async function reopen(store: PetStore): Promise<PetStore> {
  await store.close();
  stores.splice(stores.indexOf(store), 1);
  return open();
}

const bigName = (n: number) => `${n}-${'x'.repeat(20_000)}`;

describe.skipIf(tmpfsUnavailable)('PetStore on a failing disk', () => {
  it('a create on a full disk fails with insufficient_storage and leaves no trace; the next one after space is freed gets the next id', async () => {
    const store = await open();
    const acked: Pet[] = [await createPet(store, { name: bigName(1), categoryId: 1 })];
    const before = { size: store.size, nextId: store.nextId, log: statSync(store.logFile).size };
    const unfill = fs.fill(8 * 1024);
    const failed = await Promise.allSettled([1, 2, 3].map((n) => createPet(store, { name: bigName(n), categoryId: 99 })));
    for (const result of failed) {
      expect(result.status).toBe('rejected');
      const reason = (result as PromiseRejectedResult).reason as StoreFailure;
      expect(reason).toBeInstanceOf(StoreFailure);
      expect(reason.code).toBe('insufficient_storage');
      expect(reason.message).toMatch(/disk .* is full/);
    }
    expect({ size: store.size, nextId: store.nextId, log: statSync(store.logFile).size }).toEqual(before);
    expect(store.list(100).filter((p) => p.categoryId === 99)).toEqual([]);
    unfill();
    acked.push(await createPet(store, { name: 'after', categoryId: 3 }));
    expect(acked[1]?.id).toBe(before.nextId);
    const again = await reopen(store);
    expect(again.all().slice(-2)).toEqual(acked);
    expect(again.size).toBe(before.size + 1);
  });

  it('a reset on a full disk changes nothing and leaves no temp file; it works once space is freed', async () => {
    const store = await open();
    const before = [...store.all()];
    const state = { nextId: store.nextId, epoch: store.epoch };
    const unfill = fs.fill(4 * 1024);
    const many = Array.from({ length: 2000 }, (_, i) => ({ id: i + 1, name: bigName(i).slice(0, 100), categoryId: 1 }));
    const error = await store.replace(many).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreFailure);
    expect((error as StoreFailure).code).toBe('insufficient_storage');
    expect([store.all(), store.nextId, store.epoch]).toEqual([before, state.nextId, state.epoch]);
    expect(readdirSync(fs.dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    unfill();
    await store.replace(many);
    expect((await reopen(store)).size).toBe(2000);
  });

  it('creates are durable while the snapshot cannot be rewritten: folding the log waits for space', async () => {
    const warnings: string[] = [];
    const store = await open({ compactAfter: 1, warn: (w) => warnings.push(w) });
    // Few pets, large ones: the five creates outnumber them, so folding is due, and the snapshot is large.
    await store.replace(Array.from({ length: 3 }, (_, i) => ({ id: i + 1, name: `pet ${i} ${'x'.repeat(100_000)}`, categoryId: 1 })));
    // Room for log records, not for a second copy of the snapshot.
    const unfill = fs.fill(statSync(store.file).size / 2);
    const acked = [];
    for (let n = 0; n < 5; n++) acked.push(await createPet(store, { name: `logged ${n}`, categoryId: 4 }));
    await store.flush();
    expect(warnings.some((w) => /Could not fold/.test(w))).toBe(true);
    unfill();
    const again = await reopen(store);
    expect(again.all().slice(-5)).toEqual(acked);
  });

  it('on a read-only file system writes fail with service_unavailable naming it, reads go on, and writes work after a remount', async () => {
    // Linux refuses to remount read-only while a file is open for writing: the store starts on it read-only.
    const first = await open();
    const acked = await createPet(first, { name: 'first', categoryId: 1 });
    await first.close();
    stores.splice(0);
    fs.readOnly(true);
    let store: PetStore;
    try {
      store = await open();
      const error = await createPet(store, { name: 'refused', categoryId: 1 }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(StoreFailure);
      expect((error as StoreFailure).code).toBe('service_unavailable');
      expect((error as StoreFailure).message).toMatch(/read-only/);
      expect(store.list(100).map((p) => p.name)).not.toContain('refused');
      expect(store.get(acked.id)).toEqual(acked);
    } finally {
      fs.readOnly(false);
    }
    const later = await createPet(store, { name: 'later', categoryId: 1 });
    expect(later.id).toBe(acked.id + 1);
    expect((await reopen(store)).all().slice(-2)).toEqual([acked, later]);
  });

  it('a fresh store that cannot be written fails to open, naming the cause, and creates nothing', async () => {
    fs.readOnly(true);
    try {
      const error = await PetStore.open({ file: join(fs.dir, 'db.json'), seed: { seed: 1, count: 5 } }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(StoreFailure);
      expect((error as Error).message).toMatch(/db\.json.*read-only/);
    } finally {
      fs.readOnly(false);
    }
    expect(existsSync(join(fs.dir, 'db.json'))).toBe(false);
  });
});
