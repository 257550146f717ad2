/**
 * One contract for the items of APIs served from a spec (`--spec`), kept by
 * each backend: the memory store, the file store (a real temporary data
 * folder) and PostgreSQL. Each store is reached as its backend serves it
 * (`backend.items`). Seeding happens once per workspace and API; integer
 * ids count up after the seeded ones (and after any id ever held), other ids
 * are kept; lists come in id order (integers numerically, others as
 * created); an update is atomic and a change that throws stores nothing;
 * APIs and keys are kept apart; a drop seeds afresh. A second backend on
 * the same data (the file store after a close, two PostgreSQL instances at
 * once) finds the items, and concurrent creates through two PostgreSQL
 * instances never share an id.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/kernel/logger.js';
import { loadSpec } from '../../src/openapi/load-spec.js';
import type { Backend } from '../../src/store/backend.js';
import { openFileBackend } from '../../src/store/file/file-backend.js';
import type { CollectionContents, CollectionKey, Item, ItemSpace, ItemStore, SeededItems } from '../../src/store/items/types.js';
import { openMemoryBackend } from '../../src/store/memory/backend.js';
import { openPostgresBackend } from '../../src/store/postgres/backend.js';
import { tempDir, testConfig } from '../support/harness.js';
import { freshStore, postgresForFile } from '../support/shared-sandboxes.js';

const ORDERS: CollectionKey = { name: '/store/orders', idField: 'id', idKind: 'integer' };
const ITEMS: CollectionKey = { name: '/items', idField: 'itemId', idKind: 'uuid' };
const UNSEEDED: CollectionKey = { name: '/store/returns', idField: 'id', idKind: 'integer' };
const U1 = '6f1c1a5e-3b7e-4c55-9d3c-2f3f1b0e0a01';
const U2 = '0a2b7c1e-9d8f-4e6a-8b5c-3d2e1f0a9b02';
const U3 = '3c4d5e6f-7a8b-4c9d-8e0f-1a2b3c4d5e03';

/** Orders seeded out of id order, with a gap; items in an order that is not the UUIDs' sort order. */
const SEED: SeededItems = new Map<string, readonly Item[]>([
  [
    ORDERS.name,
    [
      { id: 3, petId: 30, status: 'placed' },
      { id: 1, petId: 10, status: 'approved' },
      { id: 7, petId: 70, status: 'delivered' },
    ],
  ],
  [
    ITEMS.name,
    [
      { itemId: U1, name: 'first' },
      { itemId: U2, name: 'second' },
    ],
  ],
]);

const spec = loadSpec();
let counter = 0;
/** A key no other test uses: each test starts from a workspace nobody used. */
const freshKey = () => `items-key-${++counter}`;

/** A seed function that counts its calls. */
function seeder(seed = SEED): { calls: number; seed: () => SeededItems } {
  const counted = { calls: 0, seed: () => (counted.calls++, seed) };
  return counted;
}

const spaceOf = async (store: ItemStore, key: string, api = '/api/v2', seed = seeder().seed): Promise<ItemSpace> => store.space(api, key, seed);
const ids = async (space: ItemSpace, key: CollectionKey) => (await space.list(key)).map((item) => item[key.idField]);

interface Kind {
  name: 'memory' | 'file' | 'postgres';
  /** A backend on this kind's data, opened before the tests. */
  open(): Promise<Backend>;
  /** Whether a second backend may be opened on the same data while the first is open (PostgreSQL); else the first is closed before. */
  shared: boolean;
  persistent: boolean;
}

let server: Awaited<ReturnType<typeof postgresForFile>> | undefined;
let pgUrl = '';
const fileDir = tempDir('petstore-items-');
const fileConfig = testConfig([], fileDir);

const KINDS: Kind[] = [
  {
    name: 'memory',
    open: () =>
      Promise.resolve(
        openMemoryBackend({ config: testConfig(['--store', 'memory']), logger: silentLogger, checkResponse: () => [], operations: spec.operations }),
      ),
    shared: false,
    persistent: false,
  },
  {
    name: 'file',
    open: () =>
      openFileBackend({ config: fileConfig, logger: silentLogger, checkPet: () => [], checkResponse: () => [], operations: spec.operations, maxOpen: 100 }),
    shared: false,
    persistent: true,
  },
  {
    name: 'postgres',
    open: () =>
      openPostgresBackend({ config: testConfig(['--store', pgUrl]), url: pgUrl, logger: silentLogger, checkResponse: () => [], operations: spec.operations }),
    shared: true,
    persistent: true,
  },
];

beforeAll(async () => {
  server = await postgresForFile();
  pgUrl = await freshStore(server.port);
}, 180_000);
afterAll(async () => {
  await server?.stop();
});

describe.each(KINDS)('the $name item store', (kind) => {
  let backend: Backend;
  beforeAll(async () => {
    backend = await kind.open();
  }, 60_000);
  afterAll(async () => {
    await backend?.close();
  });

  it('seeds a workspace and API once, even when first asked twice at once, and lists integers in numeric order, others as seeded', async () => {
    const key = freshKey();
    const counted = seeder();
    const [a, b] = await Promise.all([backend.items.space('/api/v2', key, counted.seed), backend.items.space('/api/v2', key, counted.seed)]);
    await spaceOf(backend.items, key, '/api/v2', counted.seed);
    expect(counted.calls).toBe(1);
    expect(await ids(a, ORDERS)).toEqual([1, 3, 7]);
    expect(await ids(b, ITEMS)).toEqual([U1, U2]);
    expect(await a.get(ORDERS, 3)).toEqual({ id: 3, petId: 30, status: 'placed' });
    expect(await a.get(ORDERS, 4)).toBeUndefined();
    expect(await a.get(ORDERS, '3')).toBeUndefined();
    expect(await a.list(UNSEEDED)).toEqual([]);
  });

  it('counts integer ids up after the largest ever held, keeps other ids, and keeps each item as given', async () => {
    const space = await spaceOf(backend.items, freshKey());
    const created = await space.create(ORDERS, { status: 'placed', petId: 1, note: 'Zoë "big" 🐕' });
    expect(JSON.stringify(created)).toBe('{"status":"placed","petId":1,"note":"Zoë \\"big\\" 🐕","id":8}');
    expect(JSON.stringify(await space.get(ORDERS, 8))).toBe(JSON.stringify(created));
    expect((await space.create(ORDERS, { petId: 2 })).id).toBe(9);
    expect(await space.remove(ORDERS, 9)).toBe(true);
    expect((await space.create(ORDERS, { petId: 3 })).id).toBe(10);
    expect(await ids(space, ORDERS)).toEqual([1, 3, 7, 8, 10]);
    expect((await space.create(UNSEEDED, { reason: 'torn' })).id).toBe(1);

    expect(await space.create(ITEMS, { itemId: U3, name: 'third' })).toEqual({ itemId: U3, name: 'third' });
    expect(await ids(space, ITEMS)).toEqual([U1, U2, U3]);
  });

  it('refuses a create past `max` in the same write: of creates made together at the edge, exactly the room passes', async () => {
    const space = await spaceOf(backend.items, freshKey());
    for (const [key, max, make] of [
      [ORDERS, 5, (i: number) => ({ petId: i })],
      [ITEMS, 4, (i: number) => ({ itemId: `00000000-0000-4000-8000-00000000000${i}`, name: `${i}` })],
    ] as const) {
      const outcomes = await Promise.allSettled(Array.from({ length: 6 }, (_, i) => space.create(key, make(i), max)));
      const refused = outcomes.flatMap((o) => (o.status === 'rejected' ? [o.reason as { code?: string; status?: number }] : []));
      expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(max - (key === ORDERS ? 3 : 2));
      for (const reason of refused) expect(reason).toMatchObject({ code: 'quota_exceeded', status: 507 });
      expect(await space.list(key)).toHaveLength(max);
    }
  });

  it('updates atomically: the change sees the current item, a change that throws stores nothing, an absent item is undefined', async () => {
    const space = await spaceOf(backend.items, freshKey());
    const updated = await space.update(ORDERS, 3, (current) => ({ ...current, status: 'approved', id: 99 }));
    expect(updated).toEqual({ id: 3, petId: 30, status: 'approved' });
    expect(await space.get(ORDERS, 3)).toEqual(updated);
    const invalid = new Error('not a valid order');
    await expect(space.update(ORDERS, 3, () => thrower(invalid))).rejects.toBe(invalid);
    expect(await space.get(ORDERS, 3)).toEqual(updated);
    let called = false;
    expect(await space.update(ORDERS, 4, (current) => ((called = true), current))).toBeUndefined();
    expect(called).toBe(false);
    // Concurrent read-modify-writes of one item all count: none is lost.
    await Promise.all(Array.from({ length: 8 }, () => space.update(ORDERS, 1, (current) => ({ ...current, petId: (current.petId as number) + 1 }))));
    expect((await space.get(ORDERS, 1))?.petId).toBe(18);
    expect(await ids(space, ORDERS)).toEqual([1, 3, 7]);
    expect(await ids(space, ITEMS)).toEqual([U1, U2]);
    const renamed = await space.update(ITEMS, U1, (current) => ({ ...current, name: 'renamed' }));
    expect(renamed).toEqual({ itemId: U1, name: 'renamed' });
    expect(await ids(space, ITEMS)).toEqual([U1, U2]);
  });

  it('removes an item once', async () => {
    const space = await spaceOf(backend.items, freshKey());
    expect(await space.remove(ORDERS, 3)).toBe(true);
    expect(await space.remove(ORDERS, 3)).toBe(false);
    expect(await space.get(ORDERS, 3)).toBeUndefined();
    expect(await space.remove(ITEMS, U2)).toBe(true);
    expect(await ids(space, ORDERS)).toEqual([1, 7]);
    expect(await ids(space, ITEMS)).toEqual([U1]);
  });

  it('keeps APIs and keys apart, and a drop seeds a workspace afresh while others keep theirs', async () => {
    const [key, other] = [freshKey(), freshKey()];
    const v2 = await spaceOf(backend.items, key, '/api/v2');
    const v1 = await spaceOf(backend.items, key, '/v1');
    const others = await spaceOf(backend.items, other, '/api/v2');
    await v2.create(ORDERS, { petId: 1 });
    await v1.remove(ORDERS, 1);
    await others.update(ORDERS, 7, (current) => ({ ...current, status: 'lost' }));
    expect(await ids(v2, ORDERS)).toEqual([1, 3, 7, 8]);
    expect(await ids(v1, ORDERS)).toEqual([3, 7]);
    expect(await ids(others, ORDERS)).toEqual([1, 3, 7]);
    expect((await others.get(ORDERS, 7))?.status).toBe('lost');
    expect((await v2.get(ORDERS, 7))?.status).toBe('delivered');

    await backend.items.drop(key);
    const counted = seeder();
    const again = await spaceOf(backend.items, key, '/api/v2', counted.seed);
    expect(counted.calls).toBe(1);
    expect(await ids(again, ORDERS)).toEqual([1, 3, 7]);
    expect(await ids(await spaceOf(backend.items, key, '/v1'), ORDERS)).toEqual([1, 3, 7]);
    expect((await (await spaceOf(backend.items, other, '/api/v2')).get(ORDERS, 7))?.status).toBe('lost');
  });

  it('reads whole collections with their next ids, and replaces those named at once, keeping the rest', async () => {
    const space = await spaceOf(backend.items, freshKey());
    await space.create(ORDERS, { petId: 8 });
    await space.remove(ORDERS, 8);
    expect(await space.contents([ORDERS, ITEMS, UNSEEDED])).toEqual(
      new Map([
        [ORDERS.name, { nextId: 9, items: [SEED.get(ORDERS.name)?.[1], SEED.get(ORDERS.name)?.[0], SEED.get(ORDERS.name)?.[2]] }],
        [ITEMS.name, { items: SEED.get(ITEMS.name) }],
        [UNSEEDED.name, { nextId: 1, items: [] }],
      ]),
    );
    await space.create(UNSEEDED, { reason: 'kept' });
    await space.replaceAll(
      [ORDERS, ITEMS, UNSEEDED],
      new Map([
        [
          ORDERS.name,
          {
            nextId: 20,
            items: [
              { id: 5, petId: 50 },
              { id: 2, petId: 20 },
            ],
          },
        ],
        [
          ITEMS.name,
          {
            items: [
              { itemId: U3, name: 'third' },
              { itemId: U1, name: 'first again' },
            ],
          },
        ],
      ]),
    );
    expect(await ids(space, ORDERS)).toEqual([2, 5]);
    expect(await space.get(ORDERS, 3)).toBeUndefined();
    expect(await ids(space, ITEMS)).toEqual([U3, U1]);
    expect(await space.list(UNSEEDED)).toEqual([{ reason: 'kept', id: 1 }]);
    expect((await space.create(ORDERS, { petId: 1 })).id).toBe(20);
    // Without a next id, one past the largest id given.
    await space.replaceAll([ORDERS], new Map([[ORDERS.name, { items: [{ id: 4 }] }]]));
    expect((await space.create(ORDERS, {})).id).toBe(5);
  });

  it('a replace that fails leaves every collection as it was', async () => {
    const space = await spaceOf(backend.items, freshKey());
    const before = await space.contents([ORDERS, ITEMS]);
    const orders: CollectionContents = { items: [{ id: 2, petId: 20 }] };
    // An item without its id is refused before anything is stored, whatever its collection's place.
    const missingId = new Map<string, CollectionContents>([
      [ORDERS.name, orders],
      [ITEMS.name, { items: [{ name: 'no id' }] }],
    ]);
    await expect(space.replaceAll([ORDERS, ITEMS], missingId)).rejects.toThrow(/no uuid id/);
    expect(await space.contents([ORDERS, ITEMS])).toEqual(before);
    if (kind.persistent) {
      // A failure while the second collection is written (its item cannot be written as JSON): the first is not kept either.
      const unwritable = { itemId: U3, toJSON: () => thrower(new Error('cannot be written')) };
      const failing = new Map<string, CollectionContents>([
        [ORDERS.name, orders],
        [ITEMS.name, { items: [unwritable] }],
      ]);
      await expect(space.replaceAll([ORDERS, ITEMS], failing)).rejects.toThrow();
      expect(await space.contents([ORDERS, ITEMS])).toEqual(before);
      expect((await space.create(ORDERS, {})).id).toBe(8);
    }
  });

  it.runIf(kind.persistent)('a replace is found whole by a second backend on the same data', { timeout: 60_000 }, async () => {
    const key = freshKey();
    const space = await spaceOf(backend.items, key);
    const contents = new Map([
      [ORDERS.name, { nextId: 30, items: [{ id: 12, petId: 1 }] }],
      [ITEMS.name, { items: [{ itemId: U2, name: 'second' }] }],
    ]);
    await space.replaceAll([ORDERS, ITEMS], contents);
    if (!kind.shared) await backend.close();
    const second = await kind.open();
    try {
      const counted = seeder();
      const seen = await spaceOf(second.items, key, '/api/v2', counted.seed);
      expect(counted.calls).toBe(0);
      expect(await seen.contents([ORDERS, ITEMS])).toEqual(contents);
    } finally {
      if (kind.shared) await second.close();
      else backend = second;
    }
  });

  it.runIf(kind.persistent)('a second backend on the same data finds the items, seeds nothing, and counts on', { timeout: 60_000 }, async () => {
    const key = freshKey();
    const space = await spaceOf(backend.items, key);
    await space.create(ORDERS, { petId: 1 });
    await space.create(ORDERS, { petId: 2 });
    await space.create(ITEMS, { itemId: U3, name: 'third' });
    await space.remove(ORDERS, 3);
    // The largest id ever held is gone: the next is still counted from it.
    await space.remove(ORDERS, 9);
    await space.update(ITEMS, U1, (current) => ({ ...current, name: 'renamed' }));
    if (!kind.shared) await backend.close();
    const second = await kind.open();
    try {
      const counted = seeder();
      const seen = await spaceOf(second.items, key, '/api/v2', counted.seed);
      expect(counted.calls).toBe(0);
      expect(await ids(seen, ORDERS)).toEqual([1, 7, 8]);
      expect(await seen.list(ITEMS)).toEqual([
        { itemId: U1, name: 'renamed' },
        { itemId: U2, name: 'second' },
        { itemId: U3, name: 'third' },
      ]);
      expect((await seen.create(ORDERS, { petId: 3 })).id).toBe(10);
    } finally {
      if (kind.shared) await second.close();
      else backend = second;
    }
  });

  it.runIf(kind.shared)('a reset through one instance is seen by the next read or write through another, seeded afresh', { timeout: 60_000 }, async () => {
    const [readFirst, writeFirst] = [freshKey(), freshKey()];
    const second = await kind.open();
    try {
      for (const key of [readFirst, writeFirst]) {
        const space = await spaceOf(backend.items, key);
        await space.create(ORDERS, { petId: 1 });
        await space.remove(ORDERS, 1);
        await space.create(ITEMS, { itemId: U3, name: 'third' });
        await (await spaceOf(second.items, key)).list(ORDERS);
        await second.items.drop(key);
      }
      const counted = seeder();
      const afterRead = await spaceOf(backend.items, readFirst, '/api/v2', counted.seed);
      expect(await ids(afterRead, ORDERS)).toEqual([1, 3, 7]);
      expect(await ids(afterRead, ITEMS)).toEqual([U1, U2]);
      expect(counted.calls).toBe(1);
      const afterWrite = await spaceOf(backend.items, writeFirst, '/api/v2', counted.seed);
      expect((await afterWrite.create(ORDERS, { petId: 2 })).id).toBe(8);
      expect(await afterWrite.update(ITEMS, U3, (current) => current)).toBeUndefined();
      expect(await ids(afterWrite, ORDERS)).toEqual([1, 3, 7, 8]);
      expect(await ids(await spaceOf(second.items, writeFirst), ORDERS)).toEqual([1, 3, 7, 8]);
      expect(counted.calls).toBe(2);
    } finally {
      await second.close();
    }
  });

  it.runIf(kind.name === 'file')("keeps each workspace's items in a folder beside the data file, named by its id, never the key", () => {
    const folders = readdirSync(join(fileDir, 'db.items'));
    expect(folders.length).toBeGreaterThan(0);
    for (const folder of folders) {
      expect(folder).toMatch(/^[0-9a-f]{16}$/);
      for (const file of readdirSync(join(fileDir, 'db.items', folder))) expect(file).toMatch(/^[0-9a-f]{16}\.json$/);
    }
  });

  it.runIf(kind.shared)('two instances creating at once, and seeding at once, hand out distinct ids', { timeout: 60_000 }, async () => {
    const key = freshKey();
    const second = await kind.open();
    try {
      const counted = seeder();
      const [a, b] = await Promise.all([spaceOf(backend.items, key, '/api/v2', counted.seed), spaceOf(second.items, key, '/api/v2', counted.seed)]);
      expect(counted.calls).toBe(1);
      const made = await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 ? a : b).create(ORDERS, { petId: i })));
      const madeIds = made.map((order) => order.id as number).sort((x, y) => x - y);
      expect(madeIds).toEqual(Array.from({ length: 40 }, (_, i) => i + 8));
      expect(await ids(b, ORDERS)).toEqual([1, 3, 7, ...madeIds]);
    } finally {
      await second.close();
    }
  });
});

function thrower(error: Error): never {
  throw error;
}
