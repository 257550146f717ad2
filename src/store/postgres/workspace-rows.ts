import { stringifyJson } from '../../exact-json.js';
import type pg from 'pg';
import type { Pet } from '../types.js';
import { databaseFailure, transaction } from './pool.js';

/** Rows per INSERT and per read of an export: big loads go in a few statements, never one of a million rows. */
const CHUNK = 10_000;

/** Inserts pets (their JSON text as the store writes it), in chunks of CHUNK rows. */
export async function insertPets(client: pg.PoolClient, workspace: string, pets: readonly Pet[]): Promise<void> {
  for (let i = 0; i < pets.length; i += CHUNK) {
    const chunk = pets.slice(i, i + CHUNK);
    await client.query(
      `INSERT INTO petstore_pets (workspace, id, status, json)
       SELECT $1, * FROM unnest($2::bigint[], $3::text[], $4::text[])`,
      [workspace, chunk.map((p) => p.id), chunk.map((p) => p.status ?? null), chunk.map((p) => stringifyJson(p))],
    );
  }
}

/**
 * A workspace as export JSON text, `{"nextId","pets"}` exactly as
 * `JSON.stringify` writes it, from one snapshot of the database: pets
 * created while it is read are not in it.
 */
export async function* exportRows(pool: pg.Pool, workspace: string): AsyncGenerator<string> {
  const pieces: string[] = [];
  try {
    await transaction(
      pool,
      async (client) => {
        const { rows } = await client.query<{ next_id: string }>('SELECT next_id FROM petstore_workspaces WHERE id = $1', [workspace]);
        pieces.push(`{"nextId":${rows[0]?.next_id ?? 1},"pets":[`);
        let after = -1;
        for (let first = true; ;) {
          const page = await client.query<[string, string]>({
            text: 'SELECT id, json FROM petstore_pets WHERE workspace = $1 AND id > $2 ORDER BY id LIMIT $3',
            values: [workspace, after, CHUNK],
            rowMode: 'array',
          });
          if (page.rows.length === 0) break;
          pieces.push((first ? '' : ',') + page.rows.map((r) => r[1]).join(','));
          first = false;
          after = Number(page.rows.at(-1)?.[0]);
        }
      },
      'REPEATABLE READ',
    );
  } catch (error) {
    throw databaseFailure(error, 'Could not export the workspace');
  }
  yield* pieces;
  yield ']}';
}
