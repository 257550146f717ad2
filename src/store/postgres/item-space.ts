import type pg from 'pg';
import type { CollectionKey, Item, ItemId, ItemSpace, SeededItems, SpaceContents } from '../items/types.js';
import { collectionFull } from '../items/quota.js';
import { stringifyJson } from '../../kernel/json.js';
import { StoreFailure } from '../../kernel/store-errors.js';
import type { UsesInFlight } from '../uses-in-flight.js';
import { failed, transaction } from './pool.js';
import { shelvesOf, type Shelf } from '../memory/items.js';
import { AT, idText, insertRows, itemOf, lockCollection, numOf, readCollections, SpaceGone, type Counters, type Place } from './item-rows.js';

/**
 * A read of a collection's items (those matching `filter`), with whether
 * its seeded items are rows yet (`ready`; null when it has no row yet); no
 * row at all when the space is gone (a reset through any instance).
 */
const read = (filter: string) => `SELECT c.next_id IS NOT NULL AS ready, i.json FROM petstore_item_spaces s
  LEFT JOIN petstore_item_collections c ON c.workspace = s.workspace AND c.api = s.api AND c.collection = $3
  LEFT JOIN petstore_items i ON c.next_id IS NOT NULL AND i.workspace = s.workspace AND i.api = s.api AND i.collection = $3 ${filter}
  WHERE s.workspace = $1 AND s.api = $2 ORDER BY i.num, i.seq`;
const LIST = read('');
const GET = read('AND i.id = $4');

/** How often one call seeds its space again before it gives up (503): resets in a row, through other instances. */
const RESEEDS = 2;

/**
 * One API's items in one workspace, in PostgreSQL (PgItemStore). Every
 * write is one transaction that first locks its collection's row: a create
 * takes the next id and sequence there, so two instances never hand out
 * the same id. Statements are unnamed (no prepared statement outlives its
 * transaction, as a pooler in transaction mode needs).
 */
export class PgItemSpace implements ItemSpace {
  constructor(
    private readonly pool: pg.Pool,
    private readonly uses: UsesInFlight,
    readonly workspace: string,
    readonly api: string,
    /** What the space is seeded with again once gone: the seed of the latest `space()` call. */
    public seed: () => SeededItems,
    private readonly reseed: (seed: () => SeededItems) => Promise<void>,
  ) {}

  list(key: CollectionKey): Promise<readonly Item[]> {
    return this.#read(key, 'Could not list the items', LIST, this.#at(key));
  }

  async get(key: CollectionKey, id: ItemId): Promise<Item | undefined> {
    return (await this.#read(key, 'Could not read the item', GET, [...this.#at(key), idText(id)]))[0];
  }

  create(key: CollectionKey, item: Item, max?: number): Promise<Item> {
    return this.#write(key, 'Could not store the item', async (client, counters) => {
      // Counted under the collection's row lock (`#lock`): creates made together, through any instance, count each other.
      if (max !== undefined) {
        const { rows } = await client.query<{ n: string }>(`SELECT count(*) AS n FROM petstore_items WHERE ${AT}`, this.#at(key));
        if (Number(rows[0]?.n ?? 0) >= max) throw collectionFull(key, max);
      }
      const integer = key.idKind === 'integer';
      const stored = integer ? { ...item, [key.idField]: counters.nextId } : item;
      const id = stored[key.idField] as ItemId;
      await client.query(
        `INSERT INTO petstore_items (workspace, api, collection, id, num, seq, json) VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT (workspace, api, collection, id) DO UPDATE SET json = EXCLUDED.json`,
        [...this.#at(key), idText(id), numOf(id), counters.nextSeq, stringifyJson(stored)],
      );
      await client.query(`UPDATE petstore_item_collections SET next_id = next_id + $4, next_seq = next_seq + 1 WHERE ${AT}`, [
        ...this.#at(key),
        integer ? 1 : 0,
      ]);
      return stored;
    });
  }

  update(key: CollectionKey, id: ItemId, change: (current: Item) => Item): Promise<Item | undefined> {
    return this.#write(key, 'Could not update the item', async (client) => {
      const where = [...this.#at(key), idText(id)];
      const { rows } = await client.query<{ json: string }>(`SELECT json FROM petstore_items WHERE ${AT} AND id = $4 FOR UPDATE`, where);
      if (!rows[0]) return undefined;
      const next = { ...change(itemOf(rows[0])), [key.idField]: id };
      await client.query(`UPDATE petstore_items SET json = $5 WHERE ${AT} AND id = $4`, [...where, stringifyJson(next)]);
      return next;
    });
  }

  remove(key: CollectionKey, id: ItemId): Promise<boolean> {
    return this.#write(key, 'Could not remove the item', async (client) => {
      const gone = await client.query(`DELETE FROM petstore_items WHERE ${AT} AND id = $4`, [...this.#at(key), idText(id)]);
      return (gone.rowCount ?? 0) > 0;
    });
  }

  async contents(keys: readonly CollectionKey[]): Promise<SpaceContents> {
    const read = await this.#transact('Could not read the items', (client) => readCollections(client, this.workspace, this.api, keys));
    return new Map(read.map(({ key, counters, items }) => [key.name, key.idKind === 'integer' ? { nextId: counters.nextId, items } : { items }]));
  }

  /** One transaction: each collection named locked (as `contents` does), its rows deleted and the given ones inserted, its counters set. */
  replaceAll(keys: readonly CollectionKey[], contents: SpaceContents): Promise<void> {
    const named = keys.filter((key) => contents.has(key.name));
    let shelves: Map<string, Shelf>;
    try {
      // Checked and ordered as the memory store keeps them, before the transaction.
      shelves = shelvesOf(named, contents);
    } catch (error) {
      return Promise.reject(error as Error);
    }
    return this.#transact('Could not store the items', async (client) => {
      await readCollections(client, this.workspace, this.api, named);
      for (const key of named) {
        const { nextId, items } = shelves.get(key.name) as Shelf;
        const ordered = [...items.values()];
        await client.query(`DELETE FROM petstore_items WHERE ${AT}`, this.#at(key));
        await insertRows(client, this.#at(key), key, ordered);
        const next = key.idKind === 'integer' ? nextId : 1;
        await client.query(`UPDATE petstore_item_collections SET next_id = $4, next_seq = $5 WHERE ${AT}`, [...this.#at(key), next, ordered.length + 1]);
      }
    });
  }

  #at(key: CollectionKey): Place {
    return [this.workspace, this.api, key.name];
  }

  /**
   * A read in one statement. A collection whose seeded items are not rows
   * yet is made so (`#lock`, in a transaction of its own), and a space gone
   * is seeded again, before the read is made again.
   */
  async #read(key: CollectionKey, action: string, sql: string, params: unknown[]): Promise<Item[]> {
    const refused = this.uses.enter();
    if (refused) throw refused;
    try {
      for (let reseeds = 0, rounds = 0; ; rounds++) {
        if (rounds > 2 * RESEEDS + 2) throw new StoreFailure('service_unavailable', `${action}: the workspace was reset meanwhile, more than once. Try again.`);
        const { rows } = await this.pool.query<{ ready: boolean | null; json: string | null }>(sql, params).catch(failed(action));
        if (rows[0]?.ready) return rows.flatMap((row) => (row.json === null ? [] : [itemOf({ json: row.json })]));
        const gone = rows.length === 0 || (await transaction(this.pool, (client) => this.#lock(client, key)).then(() => false, this.#isGone(action)));
        if (gone) await this.#seedAgain(reseeds++, action);
      }
    } finally {
      this.uses.leave();
    }
  }

  /** A rejection handler: true when the space was gone, else the failure as the client is answered. */
  #isGone(action: string): (error: unknown) => boolean {
    return (error) => {
      if (error instanceof SpaceGone) return true;
      return failed(action)(error);
    };
  }

  /** Seeds the gone space again (whichever instance comes first), or gives up after RESEEDS. */
  async #seedAgain(reseeds: number, action: string): Promise<void> {
    if (reseeds >= RESEEDS) throw new StoreFailure('service_unavailable', `${action}: the workspace was reset meanwhile, more than once. Try again.`);
    await this.reseed(this.seed);
  }

  /** A write: one transaction that holds the collection's row. `work` may throw (a change refused): nothing is stored. */
  #write<T>(key: CollectionKey, action: string, work: (client: pg.PoolClient, counters: Counters) => Promise<T>): Promise<T> {
    return this.#transact(action, async (client) => work(client, await this.#lock(client, key)));
  }

  /** One transaction of `work`, the space seeded again and `work` tried again when it found the space gone. */
  async #transact<T>(action: string, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    const refused = this.uses.enter();
    if (refused) throw refused;
    try {
      for (let reseeds = 0; ;) {
        const done = await transaction(this.pool, async (client) => ({ result: await work(client) })).catch(
          (error: unknown) => (this.#isGone(action)(error), undefined),
        );
        if (done) return done.result;
        await this.#seedAgain(reseeds++, action);
      }
    } finally {
      this.uses.leave();
    }
  }

  #lock(client: pg.PoolClient, key: CollectionKey): Promise<Counters> {
    return lockCollection(client, this.#at(key), key);
  }
}
