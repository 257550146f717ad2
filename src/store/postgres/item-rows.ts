/**
 * What every statement on an API's items in PostgreSQL shares: where a
 * collection's rows are, ids as the `id` column keeps them, and a
 * collection's row locked for a write (its seeded items made rows on its
 * first use). Statements are unnamed.
 */
import type pg from 'pg';
import type { CollectionKey, Item, ItemId } from '../items/types.js';
import { inIdOrder, nextIdAfter } from '../memory/items.js';
import { parseJson, stringifyJson } from '../../kernel/json.js';

/** Where one collection's rows are: the first three parameters of every statement on them. */
export const AT = 'workspace = $1 AND api = $2 AND collection = $3';

/** An id as the `id` column keeps it: its JSON, so the integer 7 and the string "7" stay apart, as they do in memory. */
export const idText = (id: ItemId): string => JSON.stringify(id);
export const numOf = (id: ItemId): number | null => (typeof id === 'number' ? id : null);
export const itemOf = (row: { json: string }): Item => parseJson(row.json) as Item;

/** The space's row is gone (its workspace reset through any instance): it is seeded again, and the work tried again. */
export class SpaceGone extends Error {}

/** A collection's counters, as its locked row holds them. */
export interface Counters {
  nextId: number;
  nextSeq: number;
}

/** Where a collection is: workspace id, API base path, collection name. */
export type Place = [workspace: string, api: string, collection: string];

/**
 * Items as rows of one collection, inserted by one statement (one JSON
 * parameter: array parameters would be escaped a character at a time),
 * their sequence from 1 in the order given.
 */
export async function insertRows(client: pg.PoolClient, at: Place, key: CollectionKey, items: readonly Item[]): Promise<void> {
  const rows = items.map((item, i) => {
    const id = item[key.idField] as ItemId;
    return { id: idText(id), num: numOf(id), seq: i + 1, json: stringifyJson(item) };
  });
  await client.query(
    `INSERT INTO petstore_items (workspace, api, collection, id, num, seq, json)
     SELECT $1, $2, $3, * FROM json_to_recordset($4::json) AS (id text, num bigint, seq bigint, json text)
     ON CONFLICT (workspace, api, collection, id) DO UPDATE SET json = EXCLUDED.json`,
    [...at, JSON.stringify(rows)],
  );
}

/**
 * Locks the collection's row and returns its counters, the space's row
 * held too (a reset waits for the transaction; SpaceGone when it came
 * first). On its first use, the row is made (none was seeded) or its
 * seeded items become rows, in id order, with the next id one more than
 * the largest: as the memory store.
 */
export async function lockCollection(client: pg.PoolClient, at: Place, key: CollectionKey): Promise<Counters> {
  const space = await client.query('SELECT 1 FROM petstore_item_spaces WHERE workspace = $1 AND api = $2 FOR SHARE', [at[0], at[1]]);
  if (space.rowCount === 0) throw new SpaceGone();
  const select = `SELECT seeded, next_id, next_seq FROM petstore_item_collections WHERE ${AT} FOR UPDATE`;
  let { rows } = await client.query<{ seeded: string | null; next_id: string | null; next_seq: string }>(select, at);
  if (!rows[0]) {
    await client.query(
      `INSERT INTO petstore_item_collections (workspace, api, collection, next_id) VALUES ($1, $2, $3, 1) ON CONFLICT (workspace, api, collection) DO NOTHING`,
      at,
    );
    ({ rows } = await client.query(select, at));
  }
  const row = rows[0];
  if (!row) throw new Error(`The collection ${key.name} has no row after it was made`);
  if (row.next_id !== null) return { nextId: Number(row.next_id), nextSeq: Number(row.next_seq) };
  const items = inIdOrder((parseJson(row.seeded ?? '[]') as Item[]) ?? [], key);
  await insertRows(client, at, key, items);
  const counters = { nextId: nextIdAfter(items, key.idField), nextSeq: items.length + 1 };
  await client.query(`UPDATE petstore_item_collections SET seeded = NULL, next_id = $4, next_seq = $5 WHERE ${AT}`, [...at, counters.nextId, counters.nextSeq]);
  return counters;
}

/**
 * Every collection of `keys` whole, in one transaction that holds each
 * collection's row (in name order, so that two such reads never wait on
 * each other): no write of them lands between its statements.
 */
export async function readCollections(client: pg.PoolClient, workspace: string, api: string, keys: readonly CollectionKey[]) {
  const sorted = [...keys].sort((a, b) =>
    a.name < b.name ? -1
    : a.name > b.name ? 1
    : 0,
  );
  const counters = new Map<string, Counters>();
  for (const key of sorted) counters.set(key.name, await lockCollection(client, [workspace, api, key.name], key));
  const { rows } = await client.query<{ collection: string; json: string }>(
    `SELECT collection, json FROM petstore_items WHERE workspace = $1 AND api = $2
       AND collection IN (SELECT value FROM json_array_elements_text($3::json)) ORDER BY collection, num, seq`,
    [workspace, api, JSON.stringify(sorted.map((key) => key.name))],
  );
  const items = new Map<string, Item[]>(keys.map((key) => [key.name, []]));
  for (const row of rows) items.get(row.collection)?.push(itemOf(row));
  return keys.map((key) => ({ key, counters: counters.get(key.name) as Counters, items: items.get(key.name) as Item[] }));
}
