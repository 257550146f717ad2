/**
 * The memory store's items (`--store memory`, the library's default, the
 * browser): each API's collections per workspace in this process, nothing
 * written anywhere. The file and PostgreSQL stores keep the same rules.
 */
import type { CollectionContents, CollectionKey, Item, ItemId, ItemSpace, ItemStore, SeededItems, SpaceContents } from '../items/types.js';
import { collectionFull } from '../items/quota.js';

/** One collection: its items by id, in id order, and the next integer id. */
export interface Shelf {
  items: Map<ItemId, Item>;
  nextId: number;
}

/** A collection's shelf of `items` (any order), its next id as given, else one past the largest. */
export function shelfOf(items: readonly Item[], key: CollectionKey, nextId?: number): Shelf {
  const ordered = inIdOrder(items, key);
  return { items: new Map(ordered.map((item) => [item[key.idField] as ItemId, item])), nextId: nextId ?? nextIdAfter(ordered, key.idField) };
}

/** The next integer id after the items given: one more than the largest, 1 for none. */
export function nextIdAfter(items: readonly Item[], idField: string): number {
  let max = 0;
  for (const item of items) {
    const id = item[idField];
    if (typeof id === 'number' && id > max) max = id;
  }
  return max + 1;
}

/** Items in the order a collection lists them: integers numerically, other ids as given. */
export function inIdOrder(items: readonly Item[], key: CollectionKey): Item[] {
  if (key.idKind !== 'integer') return [...items];
  return [...items].sort((a, b) => (a[key.idField] as number) - (b[key.idField] as number));
}

/** A shelf as whole-collection contents: its items in list order, the next id for integer ids only. */
export function contentsOf(shelf: Shelf, key: CollectionKey): CollectionContents {
  const items = [...shelf.items.values()];
  return key.idKind === 'integer' ? { nextId: shelf.nextId, items } : { items };
}

/** Whether `id` is an id of a collection whose ids are `kind`. */
const isIdOf = (kind: CollectionKey['idKind'], id: unknown): boolean => (kind === 'integer' ? Number.isSafeInteger(id) : typeof id === 'string');

/**
 * The shelves `contents` makes of the collections it names (each one of
 * `keys`), every item carrying an id of its collection's kind (else an
 * Error, before anything is kept): what a whole-space replace stores.
 */
export function shelvesOf(keys: readonly CollectionKey[], contents: SpaceContents): Map<string, Shelf> {
  const shelves = new Map<string, Shelf>();
  for (const key of keys) {
    const given = contents.get(key.name);
    if (!given) continue;
    const bad = given.items.findIndex((item) => !isIdOf(key.idKind, item[key.idField]));
    if (bad >= 0) throw new Error(`Item ${bad} of ${key.name} has no ${key.idKind} id in ${key.idField}: nothing was stored.`);
    shelves.set(key.name, shelfOf(given.items, key, key.idKind === 'integer' ? given.nextId : undefined));
  }
  return shelves;
}

/** One API's collections in one workspace, kept in memory. */
export class MemoryItemSpace implements ItemSpace {
  readonly #shelves = new Map<string, Shelf>();
  readonly #seeded: SeededItems;

  constructor(seeded: SeededItems) {
    this.#seeded = seeded;
  }

  #shelf(key: CollectionKey): Shelf {
    let shelf = this.#shelves.get(key.name);
    if (!shelf) {
      shelf = shelfOf(this.#seeded.get(key.name) ?? [], key);
      this.#shelves.set(key.name, shelf);
    }
    return shelf;
  }

  list(key: CollectionKey): readonly Item[] {
    return [...this.#shelf(key).items.values()];
  }

  get(key: CollectionKey, id: ItemId): Item | undefined {
    return this.#shelf(key).items.get(id);
  }

  create(key: CollectionKey, item: Item, max?: number): Promise<Item> {
    const shelf = this.#shelf(key);
    if (max !== undefined && shelf.items.size >= max) return Promise.reject(collectionFull(key, max));
    const stored = key.idKind === 'integer' ? { ...item, [key.idField]: shelf.nextId++ } : item;
    shelf.items.set(stored[key.idField] as ItemId, stored);
    return Promise.resolve(stored);
  }

  update(key: CollectionKey, id: ItemId, change: (current: Item) => Item): Promise<Item | undefined> {
    try {
      const { items } = this.#shelf(key);
      const current = items.get(id);
      if (current === undefined) return Promise.resolve(undefined);
      const next = { ...change(current), [key.idField]: id };
      items.set(id, next);
      return Promise.resolve(next);
    } catch (error) {
      return Promise.reject(error as Error);
    }
  }

  remove(key: CollectionKey, id: ItemId): Promise<boolean> {
    return Promise.resolve(this.#shelf(key).items.delete(id));
  }

  contents(keys: readonly CollectionKey[]): SpaceContents {
    return new Map(keys.map((key) => [key.name, contentsOf(this.#shelf(key), key)]));
  }

  replaceAll(keys: readonly CollectionKey[], contents: SpaceContents): Promise<void> {
    try {
      for (const [name, shelf] of shelvesOf(keys, contents)) this.#shelves.set(name, shelf);
      return Promise.resolve();
    } catch (error) {
      return Promise.reject(error as Error);
    }
  }
}

/** Every API's items by workspace, in this process: a workspace's are made, and seeded, on first use. */
export function createMemoryItemStore(): ItemStore {
  const spaces = new Map<string, Map<string, MemoryItemSpace>>();
  return {
    space(api, key, seed) {
      let byApi = spaces.get(key);
      if (!byApi) spaces.set(key, (byApi = new Map()));
      let space = byApi.get(api);
      if (!space) byApi.set(api, (space = new MemoryItemSpace(seed())));
      return space;
    },
    drop(key) {
      spaces.delete(key);
    },
    close: () => Promise.resolve(),
  };
}
