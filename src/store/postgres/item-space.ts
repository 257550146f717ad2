import type pg from 'pg';
import type { CollectionKey, Item, ItemId, ItemSpace } from '../items/types.js';
import { inIdOrder, nextIdAfter } from '../memory/items.js';
import { parseJson, stringifyJson } from '../../kernel/json.js';
import type { UsesInFlight } from '../uses-in-flight.js';
import { failed, transaction } from './pool.js';

/** Where one collection's rows are: the first three parameters of every statement here. */
const AT = 'workspace = $1 AND api = $2 AND collection = $3';

/** An id as the `id` column keeps it: its JSON, so the integer 7 and the string "7" stay apart, as they do in memory. */
const idText = (id: ItemId): string => JSON.stringify(id);
const numOf = (id: ItemId): number | null => (typeof id === 'number' ? id : null);
const itemOf = (row: { json: string }): Item => parseJson(row.json) as Item;

/** A collection's counters, as its locked row holds them. */
interface Counters {
  nextId: number;
  nextSeq: number;
}

/**
 * One API's items in one workspace, in PostgreSQL (PgItemStore). Every
 * write is one transaction that first locks its collection's row: a create
 * takes the next id and sequence there, so two instances never hand out
 * the same id. Statements are unnamed (no prepared statement outlives its
 * transaction, as a pooler in transaction mode needs).
 */
export class PgItemSpace implements ItemSpace {
  /** Collections this process knows to be in use in the database (their seeded items made rows). */
  readonly #ready = new Set<string>();

  constructor(
    private readonly pool: pg.Pool,
    private readonly uses: UsesInFlight,
    readonly workspace: string,
    readonly api: string,
  ) {}

  async list(key: CollectionKey): Promise<readonly Item[]> {
    return this.#read(key, 'Could not list the items', async () => {
      const { rows } = await this.pool.query<{ json: string }>(`SELECT json FROM petstore_items WHERE ${AT} ORDER BY num, seq`, this.#at(key));
      return rows.map(itemOf);
    });
  }

  async get(key: CollectionKey, id: ItemId): Promise<Item | undefined> {
    return this.#read(key, 'Could not read the item', async () => {
      const { rows } = await this.pool.query<{ json: string }>(`SELECT json FROM petstore_items WHERE ${AT} AND id = $4`, [...this.#at(key), idText(id)]);
      return rows[0] && itemOf(rows[0]);
    });
  }

  create(key: CollectionKey, item: Item): Promise<Item> {
    return this.#write(key, 'Could not store the item', async (client, counters) => {
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

  #at(key: CollectionKey): [string, string, string] {
    return [this.workspace, this.api, key.name];
  }

  /** A read, once the collection is known to be in use (made so in a transaction of its own the first time). */
  async #read<T>(key: CollectionKey, action: string, work: () => Promise<T>): Promise<T> {
    const refused = this.uses.enter();
    if (refused) throw refused;
    try {
      if (!this.#ready.has(key.name)) await transaction(this.pool, (client) => this.#lock(client, key)).catch(failed(action));
      this.#ready.add(key.name);
      return await work().catch(failed(action));
    } finally {
      this.uses.leave();
    }
  }

  /** A write: one transaction that holds the collection's row. `work` may throw (a change refused): nothing is stored. */
  async #write<T>(key: CollectionKey, action: string, work: (client: pg.PoolClient, counters: Counters) => Promise<T>): Promise<T> {
    const refused = this.uses.enter();
    if (refused) throw refused;
    try {
      const result = await transaction(this.pool, async (client) => work(client, await this.#lock(client, key))).catch(failed(action));
      this.#ready.add(key.name);
      return result;
    } finally {
      this.uses.leave();
    }
  }

  /**
   * Locks the collection's row and returns its counters. On its first use,
   * the row is made (none was seeded) or its seeded items become rows, in id
   * order, with the next id one more than the largest: as the memory store.
   */
  async #lock(client: pg.PoolClient, key: CollectionKey): Promise<Counters> {
    const select = `SELECT seeded, next_id, next_seq FROM petstore_item_collections WHERE ${AT} FOR UPDATE`;
    let { rows } = await client.query<{ seeded: string | null; next_id: string | null; next_seq: string }>(select, this.#at(key));
    if (!rows[0]) {
      await client.query(
        `INSERT INTO petstore_item_collections (workspace, api, collection, next_id) VALUES ($1, $2, $3, 1) ON CONFLICT (workspace, api, collection) DO NOTHING`,
        this.#at(key),
      );
      ({ rows } = await client.query(select, this.#at(key)));
    }
    const row = rows[0];
    if (!row) throw new Error(`The collection ${key.name} has no row after it was made`);
    if (row.next_id !== null) return { nextId: Number(row.next_id), nextSeq: Number(row.next_seq) };
    const items = inIdOrder((parseJson(row.seeded ?? '[]') as Item[]) ?? [], key);
    const rowsOf = items.map((item, i) => {
      const id = item[key.idField] as ItemId;
      return { id: idText(id), num: numOf(id), seq: i + 1, json: stringifyJson(item) };
    });
    // One JSON parameter: array parameters would be escaped a character at a time.
    await client.query(
      `INSERT INTO petstore_items (workspace, api, collection, id, num, seq, json)
       SELECT $1, $2, $3, * FROM json_to_recordset($4::json) AS (id text, num bigint, seq bigint, json text)
       ON CONFLICT (workspace, api, collection, id) DO UPDATE SET json = EXCLUDED.json`,
      [...this.#at(key), JSON.stringify(rowsOf)],
    );
    const counters = { nextId: nextIdAfter(items, key.idField), nextSeq: items.length + 1 };
    await client.query(`UPDATE petstore_item_collections SET seeded = NULL, next_id = $4, next_seq = $5 WHERE ${AT}`, [
      ...this.#at(key),
      counters.nextId,
      counters.nextSeq,
    ]);
    return counters;
  }
}
