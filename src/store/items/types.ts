/**
 * What the sandbox keeps of an API served from a spec by convention (`--spec`):
 * items in collections, per workspace, apart for each API. The stateful
 * convention mode (`modes/conventional/`) reads and writes them through
 * these interfaces; the file, memory and PostgreSQL backends each keep them.
 */

/** An answer at once, or a promise of it (as `store/backend.ts` has it: that file imports these types, so this one cannot import it). */
type MaybePromise<T> = T | Promise<T>;

/** An item's identifier as JSON carries it: an integer, or a string (a UUID). */
export type ItemId = number | string;

/** One stored item: a JSON object valid against its collection's item schema. */
export type Item = Record<string, unknown>;

/** How a collection's ids are made: counted up from 1, or a random UUID made by the mode. */
export type IdKind = 'integer' | 'uuid' | 'string';

/** A collection as its store needs to know it. */
export interface CollectionKey {
  /** The collection's path template in its spec, e.g. `/store/orders`: its name in the store. */
  name: string;
  /** The item property holding the id, e.g. `id`. */
  idField: string;
  idKind: IdKind;
}

/** The items each collection starts with when a workspace first uses an API (ids set). */
export type SeededItems = ReadonlyMap<string, readonly Item[]>;

/** One collection whole: its items in list order and, for integer ids, the id its next create takes. */
export interface CollectionContents {
  nextId?: number;
  items: readonly Item[];
}

/** Whole collections of one API's space, by collection name. */
export type SpaceContents = ReadonlyMap<string, CollectionContents>;

/**
 * One API's items in one workspace. Reads give items in id order (integers
 * numerically; other ids in the order they were created). A write resolves
 * once the store keeps it durably (the file store: synced to disk;
 * PostgreSQL: committed); a write that fails stores nothing.
 */
export interface ItemSpace {
  list(collection: CollectionKey): MaybePromise<readonly Item[]>;
  get(collection: CollectionKey, id: ItemId): MaybePromise<Item | undefined>;
  /**
   * Stores a new item. With `idKind: 'integer'` the store takes the
   * collection's next id (one more than the largest it ever held) and sets
   * it on the item; otherwise the item already carries its id. Resolves to
   * the item as stored. With `max`, a collection that holds `max` items
   * already refuses it (507, `store/items/quota.ts`), checked in the same
   * write as the create: creates made together never pass it together.
   */
  create(collection: CollectionKey, item: Item, max?: number): Promise<Item>;
  /**
   * Replaces the item with `id` by what `change` makes of it, atomically
   * (no other write of the item in between); `change` may throw (an
   * invalid merge), and then nothing is stored. Undefined when there is no
   * such item.
   */
  update(collection: CollectionKey, id: ItemId, change: (current: Item) => Item): Promise<Item | undefined>;
  /** Removes the item; whether there was one. */
  remove(collection: CollectionKey, id: ItemId): Promise<boolean>;
  /**
   * Every collection of `collections` whole, read at one moment (no write
   * half seen): its items in list order, and its next id when its ids are
   * integers. An export and a checkpoint read a space so.
   */
  contents(collections: readonly CollectionKey[]): MaybePromise<SpaceContents>;
  /**
   * Replaces the collections `contents` names (each one of `collections`)
   * by what it holds, all at once or not at all: a failure leaves every one
   * as it was. Items keep the order given (integer ids: sorted); an integer
   * collection's next id is the one given, else one past its largest id.
   * Collections not named keep their items. A load and a restore write so.
   */
  replaceAll(collections: readonly CollectionKey[], contents: SpaceContents): Promise<void>;
}

/** Every API's items, by workspace. */
export interface ItemStore {
  /**
   * The items of the API served at `api` (its base path, e.g. `/api/v2`) in
   * the workspace of `key`; on first use, the collections are seeded with
   * what `seed` gives (called at most once per workspace and API).
   */
  space(api: string, key: string, seed: () => SeededItems): MaybePromise<ItemSpace>;
  /** Forgets every API's items of the workspace of `key` (a reset): the next use seeds them again. */
  drop(key: string): MaybePromise<void>;
  close(): Promise<void>;
}
