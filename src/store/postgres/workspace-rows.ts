import { stringifyJson } from '../../kernel/json.js';
import type pg from 'pg';
import { StoreFailure } from '../../kernel/store-errors.js';
import { EXPORT_TAIL, exportHead } from '../export-json.js';
import type { Pet } from '../types.js';
import { failed, transaction } from './pool.js';

/**
 * A workspace removed (an open key's, unused) since the request's state read: not an empty workspace. Nothing was
 * done; the request is tried once more on the workspace made afresh (`PgWorkspaces.use`), and only a second removal
 * within that try reaches the client, as a 503.
 */
export class WorkspaceMissing extends StoreFailure {
  constructor() {
    super('service_unavailable', 'The workspace is missing from the database. Try again.');
    this.name = 'WorkspaceMissing';
  }
}

export const missing = (): StoreFailure => new WorkspaceMissing();

/** Rows per INSERT and per read of an export: big loads go in a few statements, never one of a million rows. */
const CHUNK = 10_000;

/** Inserts pets (their JSON text as the store writes it), in chunks of CHUNK rows. */
export async function insertPets(client: pg.PoolClient, workspace: string, pets: readonly Pet[]): Promise<void> {
  for (let i = 0; i < pets.length; i += CHUNK) {
    const chunk = pets.slice(i, i + CHUNK);
    // One JSON parameter: array parameters would be escaped a character at a time.
    await client.query(
      `INSERT INTO petstore_pets (workspace, id, status, json)
       SELECT $1, * FROM json_to_recordset($2::json) AS (id bigint, status text, json text)`,
      [workspace, JSON.stringify(chunk.map((p) => ({ id: p.id, status: p.status ?? null, json: stringifyJson(p) })))],
    );
  }
}

/** An export read from one snapshot: its text in pieces, with the count and next id of that same snapshot. */
export interface ExportSnapshot {
  count: number;
  nextId: number;
  pieces: string[];
}

/**
 * A workspace as export JSON text, `{"nextId","pets"}` exactly as
 * `JSON.stringify` writes it, from one snapshot of the database (REPEATABLE
 * READ): pets created while it is read are not in it, nor in its count.
 */
export async function readExport(pool: pg.Pool, workspace: string): Promise<ExportSnapshot> {
  const pieces: string[] = [];
  let nextId = 1;
  let count = 0;
  await transaction(
    pool,
    async (client) => {
      const { rows } = await client.query<{ next_id: string }>('SELECT next_id FROM petstore_workspaces WHERE id = $1', [workspace]);
      // Removed (an open key's, unused) since this request's state read: not an empty workspace.
      if (!rows[0]) throw missing();
      nextId = Number(rows[0].next_id);
      pieces.push(exportHead(rows[0].next_id));
      let after = -1;
      for (;;) {
        const page = await client.query<[string, string]>({
          text: 'SELECT id, json FROM petstore_pets WHERE workspace = $1 AND id > $2 ORDER BY id LIMIT $3',
          values: [workspace, after, CHUNK],
          rowMode: 'array',
        });
        if (page.rows.length === 0) break;
        pieces.push((count === 0 ? '' : ',') + page.rows.map((r) => r[1]).join(','));
        count += page.rows.length;
        after = Number(page.rows.at(-1)?.[0]);
      }
    },
    'REPEATABLE READ',
  ).catch(failed('Could not export the workspace'));
  pieces.push(EXPORT_TAIL);
  return { count, nextId, pieces };
}

/** The export of `readExport`, in pieces. */
export async function* exportRows(pool: pg.Pool, workspace: string): AsyncGenerator<string> {
  yield* (await readExport(pool, workspace)).pieces;
}
