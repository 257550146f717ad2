/**
 * The file item store on a full disk: the data folder on a 2 MiB tmpfs,
 * filled until the file system refuses another byte. A create is refused
 * with a StoreFailure answered 507 `insufficient_storage`, and is not
 * stored: not listed, not counted (the next id is still free), and not
 * there after the store is opened again. Once space is freed, creates work
 * again without a reopen.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../src/kernel/errors.js';
import { StoreFailure } from '../../src/kernel/store-errors.js';
import { WorkspaceIds } from '../../src/store/file/workspace-ids.js';
import { createFileItemStore } from '../../src/store/file/items.js';
import type { CollectionKey, Item, ItemStore } from '../../src/store/items/types.js';
import { fill, mountTmpfs, tmpfsUnavailable, unmountTmpfs } from '../support/mounts.js';

const DISK = 2 * 1024 * 1024;
const ORDERS: CollectionKey = { name: '/store/orders', idField: 'id', idKind: 'integer' };
const SEED = new Map<string, readonly Item[]>([[ORDERS.name, [{ id: 1, petId: 1 }]]]);
const KEY = 'full-disk-key';
const API = '/v1';
/** Big enough that its file cannot be written in what a filled tmpfs leaves. */
const NOTE = 'n'.repeat(64 * 1024);

// Mounting a tmpfs needs root (CI runs as root); elsewhere there is no small disk to fill, so the test cannot run.
const unavailable = tmpfsUnavailable();

async function openStore(dataFile: string): Promise<ItemStore> {
  return createFileItemStore({ dataFile, ids: await WorkspaceIds.load(dataFile) });
}

const ids = async (store: ItemStore) => (await (await store.space(API, KEY, () => SEED)).list(ORDERS)).map((order) => order.id);

describe.skipIf(unavailable)('the file item store on a full disk', () => {
  it('refuses a create with 507, keeps nothing of it even after a reopen, and creates again once space is freed', { timeout: 60_000 }, async () => {
    const mount = mountTmpfs(DISK, 'petstore-items-full-');
    const dataFile = join(mount, 'db.json');
    let store: ItemStore | undefined = await openStore(dataFile);
    try {
      const space = await store.space(API, KEY, () => SEED);
      expect((await space.create(ORDERS, { petId: 2, note: NOTE })).id).toBe(2);
      fill(join(mount, 'filler'));

      const refused = await space.create(ORDERS, { petId: 3, note: NOTE }).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(refused).toBeInstanceOf(StoreFailure);
      const failure = refused as StoreFailure;
      expect(failure.code).toBe('insufficient_storage');
      expect(ERROR_CODES[failure.code].status).toBe(507);
      expect(failure.message).toMatch(/full/);
      expect(await ids(store)).toEqual([1, 2]);

      await store.close();
      store = await openStore(dataFile);
      expect(await ids(store)).toEqual([1, 2]);

      rmSync(join(mount, 'filler'));
      const again = await store.space(API, KEY, () => SEED);
      expect((await again.create(ORDERS, { petId: 4 })).id).toBe(3);
      await store.close();
      store = await openStore(dataFile);
      expect(await ids(store)).toEqual([1, 2, 3]);
    } finally {
      await store?.close();
      unmountTmpfs(mount);
    }
  });
});
