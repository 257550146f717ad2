/**
 * An item store that forgets a workspace by its id (an open key's
 * workspace removed): its items go, its next use seeds afresh, other
 * workspaces keep theirs; an id it never saw changes nothing. On the file
 * store, the workspace's items folder goes too.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { byWorkspaceId } from '../../../src/store/items/by-workspace-id.js';
import { createFileItemStore } from '../../../src/store/file/items.js';
import { WorkspaceIds } from '../../../src/store/file/workspace-ids.js';
import type { CollectionKey, Item, ItemStore } from '../../../src/store/items/types.js';
import { createMemoryItemStore } from '../../../src/store/memory/items.js';
import { tempDir } from '../../support/harness.js';

const ORDERS: CollectionKey = { name: '/orders', idField: 'id', idKind: 'integer' };
const SEED = new Map<string, readonly Item[]>([[ORDERS.name, [{ id: 1 }]]]);
const idOf = (key: string) => `id-of-${key}`;

async function expectForgets(store: ItemStore & { forget(id: string): void }, settled: () => Promise<void>): Promise<void> {
  await (await store.space('/v1', 'a', () => SEED)).create(ORDERS, { note: 'a' });
  await (await store.space('/v1', 'b', () => SEED)).create(ORDERS, { note: 'b' });
  store.forget('id-of-nobody');
  store.forget(idOf('a'));
  await settled();
  let seeded = 0;
  const again = await store.space('/v1', 'a', () => (seeded++, SEED));
  expect(seeded).toBe(1);
  expect(await again.list(ORDERS)).toEqual([{ id: 1 }]);
  expect(await (await store.space('/v1', 'b', () => SEED)).list(ORDERS)).toEqual([{ id: 1 }, { note: 'b', id: 2 }]);
}

const tick = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

describe('an item store forgetting a workspace by its id', () => {
  it('in memory', async () => {
    await expectForgets(byWorkspaceId(createMemoryItemStore(), idOf), tick);
  });

  it('in files, its folder removed', async () => {
    const dataFile = join(tempDir('petstore-items-forget-'), 'db.json');
    const ids = await WorkspaceIds.load(dataFile);
    const store = byWorkspaceId(createFileItemStore({ dataFile, ids }), (key) => ids.of(key));
    const folder = join(dataFile, '..', 'db.items', ids.of('a'));
    const forgotten = { ...store, forget: (id: string) => store.forget(id === idOf('a') ? ids.of('a') : id) };
    await expectForgets(forgotten, async () => {
      for (let i = 0; i < 100 && existsSync(folder); i++) await new Promise((resolve) => setTimeout(resolve, 10));
      expect(existsSync(folder)).toBe(false);
    });
    await store.close();
  });
});
