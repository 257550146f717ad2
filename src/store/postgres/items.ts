import type pg from 'pg';
import type { ItemStore, SeededItems } from '../items/types.js';
import { stringifyJson } from '../../kernel/json.js';
import { UsesInFlight } from '../uses-in-flight.js';
import { failed, transaction } from './pool.js';
import { PgItemSpace } from './item-space.js';

export interface PgItemStoreOptions {
  pool: pg.Pool;
  /** The workspace id of a key (PgWorkspaces.idOf): what the rows are keyed by, never the key. */
  idOf: (key: string) => string;
}

/** Runs `work` as a use of the store: refused once it is closing, and waited for by its close. */
async function within<T>(uses: UsesInFlight, work: () => Promise<T>): Promise<T> {
  const refused = uses.enter();
  if (refused) throw refused;
  try {
    return await work();
  } finally {
    uses.leave();
  }
}

/** Seeds a space unless any instance did: its row and its collections' seeded items, in one transaction. */
const seedSpace = (pool: pg.Pool, workspace: string, api: string, seed: () => SeededItems): Promise<void> =>
  transaction(pool, async (client) => {
    const made = await client.query('INSERT INTO petstore_item_spaces (workspace, api) VALUES ($1, $2) ON CONFLICT (workspace, api) DO NOTHING RETURNING api', [
      workspace,
      api,
    ]);
    if (made.rowCount === 0) return;
    const collections = [...seed()].map(([collection, items]) => ({ collection, seeded: `[${items.map((item) => stringifyJson(item)).join(',')}]` }));
    await client.query(
      `INSERT INTO petstore_item_collections (workspace, api, collection, seeded)
       SELECT $1, $2, * FROM json_to_recordset($3::json) AS (collection text, seeded text)`,
      [workspace, api, JSON.stringify(collections)],
    );
  }).catch(failed("Could not store the API's items"));

/** Removes every API's items of a workspace, in one transaction. */
const dropWorkspace = (pool: pg.Pool, workspace: string): Promise<void> =>
  transaction(pool, async (client) => {
    // The spaces first: a write under way holds its space's row, and its item goes with the rest once it committed.
    for (const table of ['petstore_item_spaces', 'petstore_item_collections', 'petstore_items'])
      await client.query(`DELETE FROM ${table} WHERE workspace = $1`, [workspace]);
  }).catch(failed("Could not remove the workspace's items"));

/**
 * The items of every API in PostgreSQL (migration 5), by workspace id and
 * API base path, shared by every instance on the database. A space is
 * seeded in one transaction on its first use by any instance: instances
 * racing to seed it wait on its row, and all but one find it made (ON
 * CONFLICT DO NOTHING). A space reset through any instance is found gone
 * by the next read or write through any other, and seeded again there.
 */
export function createPgItemStore({ pool, idOf }: PgItemStoreOptions): ItemStore {
  const uses = new UsesInFlight();
  const known = new Map<string, Map<string, PgItemSpace>>();
  const opening = new Map<string, Promise<PgItemSpace>>();
  return {
    space(api, key, seed) {
      const workspace = idOf(key);
      const space = known.get(workspace)?.get(api);
      if (space) {
        space.seed = seed;
        return space;
      }
      const name = JSON.stringify([workspace, api]);
      let open = opening.get(name);
      if (!open) {
        open = within(uses, () => seedSpace(pool, workspace, api, seed)).then(() => {
          let byApi = known.get(workspace);
          if (!byApi) known.set(workspace, (byApi = new Map()));
          const made = byApi.get(api) ?? new PgItemSpace(pool, uses, workspace, api, seed, (again) => seedSpace(pool, workspace, api, again));
          byApi.set(api, made);
          return made;
        });
        opening.set(name, open);
        const forget = () => opening.get(name) === open && opening.delete(name);
        open.then(forget, forget);
      }
      return open;
    },
    drop(key) {
      const workspace = idOf(key);
      known.delete(workspace);
      return within(uses, () => dropWorkspace(pool, workspace));
    },
    close: () => uses.close(),
  };
}
