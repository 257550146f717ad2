import type { CollectionKey, Item, ItemId, ItemSpace, SpaceContents } from '../items/types.js';
import { collectionFull } from '../items/quota.js';
import { contentsOf, shelfOf, shelvesOf, type Shelf } from '../memory/items.js';
import { stringifyJson } from '../../kernel/json.js';
import { StoreFailure, storageFailure } from '../../kernel/store-errors.js';
import { RenamedNotDurable, writeFileAtomic } from './durable-entries.js';

/** One collection as its file holds it: items in list order, and the next integer id once the collection was used. */
export interface StoredCollection {
  nextId?: number;
  items: Item[];
}

/** What a write makes of a collection: its new shelf (none: nothing to write) and the answer. */
type Change<T> = (shelf: Shelf) => { next?: Shelf; result: T };

/** What a write makes of the space: the new shelves of the collections it changes (none: nothing to write), and the answer. */
type SpaceChange<T> = () => { next?: ReadonlyMap<string, Shelf>; result: T };

/** The text of a space's file, one item a line: `{"format":1,"api","collections":{name:{"nextId","items":[...]}}}`. */
export function* spaceText(api: string, collections: ReadonlyMap<string, StoredCollection>): Generator<string> {
  yield `{"format":1,"api":${JSON.stringify(api)},"collections":{`;
  let first = true;
  for (const [name, { nextId, items }] of collections) {
    const head = nextId === undefined ? '' : `"nextId":${nextId},`;
    yield `${first ? '' : ','}\n${JSON.stringify(name)}:{${head}"items":[`;
    first = false;
    for (let i = 0; i < items.length; i++) yield `${i === 0 ? '' : ','}\n${stringifyJson(items[i])}`;
    yield ']}';
  }
  yield '\n}}\n';
}

/**
 * One API's items in one workspace, in one file (`items.ts` names it). Reads
 * are answered from memory; writes run one at a time, each writing the
 * whole file atomically and durably (temp file, fsync, rename, fsync of the
 * folder), and the copy in memory changes only once that succeeded: a
 * failed write stores nothing and rejects with a StoreFailure (full disk
 * 507, other failures 503).
 */
export class FileItemSpace implements ItemSpace {
  /** Collections as read or seeded, not used yet: made shelves on first use, when their id field is known. */
  readonly #stored: Map<string, StoredCollection>;
  readonly #shelves = new Map<string, Shelf>();
  #chain: Promise<unknown> = Promise.resolve();
  /** Set once the workspace is reset or the store closes: every later write is refused with it. */
  #refusal: StoreFailure | undefined;

  constructor(
    readonly file: string,
    readonly api: string,
    stored: Map<string, StoredCollection>,
  ) {
    this.#stored = stored;
  }

  #shelf(key: CollectionKey): Shelf {
    let shelf = this.#shelves.get(key.name);
    if (!shelf) {
      const stored = this.#stored.get(key.name);
      shelf = shelfOf(stored?.items ?? [], key, stored?.nextId);
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
    return this.#write(key, 'Could not store the item', (shelf) => {
      // Checked here, in the space's one-at-a-time writes: creates made together count each other.
      if (max !== undefined && shelf.items.size >= max) throw collectionFull(key, max);
      const stored = key.idKind === 'integer' ? { ...item, [key.idField]: shelf.nextId } : item;
      const items = new Map(shelf.items).set(stored[key.idField] as ItemId, stored);
      return { next: { items, nextId: key.idKind === 'integer' ? shelf.nextId + 1 : shelf.nextId }, result: stored };
    });
  }

  update(key: CollectionKey, id: ItemId, change: (current: Item) => Item): Promise<Item | undefined> {
    return this.#write(key, 'Could not update the item', (shelf) => {
      const current = shelf.items.get(id);
      if (current === undefined) return { result: undefined };
      const next = { ...change(current), [key.idField]: id };
      return { next: { items: new Map(shelf.items).set(id, next), nextId: shelf.nextId }, result: next };
    });
  }

  remove(key: CollectionKey, id: ItemId): Promise<boolean> {
    return this.#write(key, 'Could not remove the item', (shelf) => {
      if (!shelf.items.has(id)) return { result: false };
      const items = new Map(shelf.items);
      items.delete(id);
      return { next: { items, nextId: shelf.nextId }, result: true };
    });
  }

  contents(keys: readonly CollectionKey[]): SpaceContents {
    return new Map(keys.map((key) => [key.name, contentsOf(this.#shelf(key), key)]));
  }

  replaceAll(keys: readonly CollectionKey[], contents: SpaceContents): Promise<void> {
    return this.#commit('Could not store the items', () => ({ next: shelvesOf(keys, contents), result: undefined }));
  }

  /** Refuses writes from now on with `refusal`, and resolves once those under way settled (a reset, a close). */
  stop(refusal: StoreFailure): Promise<void> {
    this.#refusal ??= refusal;
    return this.#chain.then(
      () => undefined,
      () => undefined,
    );
  }

  /** The space's file text with the shelves of `next` in place of those it names. */
  #text(next: ReadonlyMap<string, Shelf>): Generator<string> {
    const collections = new Map<string, StoredCollection>(this.#stored);
    for (const [name, shelf] of [...this.#shelves, ...next]) collections.set(name, { nextId: shelf.nextId, items: [...shelf.items.values()] });
    return spaceText(this.api, collections);
  }

  /** A write of one collection (`#commit`). */
  #write<T>(key: CollectionKey, action: string, change: Change<T>): Promise<T> {
    return this.#commit(action, () => {
      const { next, result } = change(this.#shelf(key));
      return next ? { next: new Map([[key.name, next]]), result } : { result };
    });
  }

  /** Runs `change` after the space's earlier writes; writes the whole file with what it made, and only then keeps it. */
  #commit<T>(action: string, change: SpaceChange<T>): Promise<T> {
    const run = this.#chain.then(async () => {
      if (this.#refusal) throw this.#refusal;
      const { next, result } = change();
      if (!next) return result;
      const unsynced = await writeFileAtomic(this.file, this.#text(next)).then(
        () => undefined,
        (error: unknown) => {
          if (error instanceof RenamedNotDurable) return error;
          throw storageFailure(error, action);
        },
      );
      // Once renamed, the new file is what a restart reads: it is served from now on.
      for (const [name, shelf] of next) this.#shelves.set(name, shelf);
      if (unsynced)
        throw new StoreFailure(
          'service_unavailable',
          `${action}: the file was written, but its folder could not be synced (${unsynced.code ?? 'unknown error'}), so the change may not survive a power cut.`,
          unsynced,
        );
      return result;
    });
    this.#chain = run.catch(() => undefined);
    return run;
  }
}
