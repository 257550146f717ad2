import type pg from 'pg';
import type { CheckpointInfo, CheckpointInput, CheckpointLimits, CheckpointStore } from '../backend.js';
import { CHECKPOINT_NAME, headLine, refusals, saveBudget } from '../checkpoint-rules.js';
import { failed, transaction } from './pool.js';

/**
 * The lock that saves and deletes of one workspace's checkpoints take in
 * turn, on any instance: an advisory lock of the transaction, keyed by this
 * class (0x5e7c4ec, "petstore checkpoints") and the workspace id
 * (hashtext). It is not the workspace's row lock, so the workspace's
 * creates go on while a large checkpoint is written. Two int4 keys are apart
 * from the migrations' single bigint key; two workspaces whose ids hash
 * alike only take turns.
 */
const LOCK = `SELECT pg_advisory_xact_lock(${0x5e7_c4ec}, hashtext($1))`;

interface Row {
  name: string;
  saved_at: Date;
  pet_count: string;
  next_id: string;
  bytes: string;
}

const infoOf = (row: Row): CheckpointInfo => ({
  name: row.name,
  savedAt: row.saved_at.toISOString(),
  count: Number(row.pet_count),
  nextId: Number(row.next_id),
  bytes: Number(row.bytes),
});

/**
 * The PostgreSQL backend's checkpoints: one row each in
 * `petstore_checkpoints`, the export text kept byte for byte (`text`), so
 * every instance on the database lists and restores the same ones. A save or
 * a delete is one transaction under the workspace's checkpoint lock (LOCK):
 * the limits hold under concurrent calls through any number of instances,
 * and a refused or failed save leaves the checkpoints as they were. Limits,
 * refusals and byte counts are the file backend's (`FileCheckpoints`).
 */
export class PgCheckpoints implements CheckpointStore {
  constructor(
    private readonly pool: pg.Pool,
    readonly limits: CheckpointLimits,
  ) {}

  async save(workspace: string, name: string, input: CheckpointInput, overwrite: boolean): Promise<CheckpointInfo> {
    checkName(name);
    const pieces: string[] = [];
    for await (const piece of input.text) pieces.push(piece);
    const savedAt = new Date().toISOString();
    const head = headLine({ checkpoint: 1, savedAt, count: input.count, nextId: input.nextId });
    const bytes = pieces.reduce((n, piece) => n + Buffer.byteLength(piece), Buffer.byteLength(head));
    return transaction(this.pool, async (client) => {
      await client.query(LOCK, [workspace]);
      const { rows } = await client.query<{ name: string; bytes: string }>('SELECT name, bytes FROM petstore_checkpoints WHERE workspace = $1', [workspace]);
      const budget = saveBudget(
        rows.map((r) => ({ name: r.name, bytes: Number(r.bytes) })),
        name,
        overwrite,
        this.limits,
      );
      if (bytes > budget) throw refusals.bytes(budget);
      await client.query(
        `INSERT INTO petstore_checkpoints (workspace, name, saved_at, pet_count, next_id, bytes, text) VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT (workspace, name) DO UPDATE SET saved_at = EXCLUDED.saved_at, pet_count = EXCLUDED.pet_count, next_id = EXCLUDED.next_id,
           bytes = EXCLUDED.bytes, text = EXCLUDED.text`,
        [workspace, name, savedAt, input.count, input.nextId, bytes, pieces.join('')],
      );
      return { name, savedAt, count: input.count, nextId: input.nextId, bytes };
    }).catch(failed('Could not save the checkpoint'));
  }

  async list(workspace: string): Promise<CheckpointInfo[]> {
    const { rows } = await this.pool
      .query<Row>('SELECT name, saved_at, pet_count, next_id, bytes FROM petstore_checkpoints WHERE workspace = $1 ORDER BY name COLLATE "C"', [workspace])
      .catch(failed('Could not list the checkpoints'));
    return rows.map(infoOf);
  }

  async read(workspace: string, name: string): Promise<string | undefined> {
    checkName(name);
    const { rows } = await this.pool
      .query<{ text: string }>('SELECT text FROM petstore_checkpoints WHERE workspace = $1 AND name = $2', [workspace, name])
      .catch(failed('Could not read the checkpoint'));
    return rows[0]?.text;
  }

  async delete(workspace: string, name: string): Promise<boolean> {
    checkName(name);
    return transaction(this.pool, async (client) => {
      await client.query(LOCK, [workspace]);
      const { rowCount } = await client.query('DELETE FROM petstore_checkpoints WHERE workspace = $1 AND name = $2', [workspace, name]);
      return (rowCount ?? 0) > 0;
    }).catch(failed('Could not delete the checkpoint'));
  }
}

/** A name the file backend could not keep is refused here too: the same 400, whichever backend. */
function checkName(name: string): void {
  if (!CHECKPOINT_NAME.test(name)) throw refusals.name(name);
}
