import type pg from 'pg';
import { MAX_ID } from '../rules.js';
import { buildPet, type Quota } from '../pet-index.js';
import type { NewPet, Pet } from '../types.js';
import { BatchQueue, rejectEach } from './batch-queue.js';

/** A create waiting for its statement: what was sent and the pet's JSON after the id. */
export interface QueuedCreate {
  input: NewPet;
  rest: string;
  fixedBytes: number;
  resolve(pet: Pet): void;
  reject(error: unknown): void;
}

/**
 * Group commit for PostgreSQL: the creates of a workspace that arrive
 * while its previous statement runs go together in one statement (one
 * row lock, one COMMIT, one fsync), ids in arrival order. A batch the
 * quota or the ids cannot hold whole stores nothing, and its creates run
 * one by one, so each gets its own exact answer.
 */
export class CreateBatcher {
  private readonly queue = new BatchQueue<QueuedCreate>((batch) => this.run(batch), { gatherMs: 1, failed: rejectEach });

  constructor(
    private readonly pool: pg.Pool,
    private readonly workspace: string,
    private readonly quota: Quota,
    /** The single create, used alone and when a batch is refused. */
    private readonly single: (item: QueuedCreate) => Promise<Pet>,
  ) {}

  add(input: NewPet, rest: string, fixedBytes: number): Promise<Pet> {
    return new Promise((resolve, reject) => this.queue.push({ input, rest, fixedBytes, resolve, reject }));
  }

  private async run(batch: QueuedCreate[]): Promise<void> {
    if (batch.length > 1) {
      const pets = await this.many(batch).catch(() => undefined);
      if (pets) {
        batch.forEach((item, i) => item.resolve(pets[i] as Pet));
        return;
      }
    }
    await Promise.all(batch.map((item) => this.single(item).then(item.resolve, item.reject)));
  }

  /** The whole batch in one statement, or undefined when it cannot be stored whole. */
  private async many(batch: QueuedCreate[]): Promise<Pet[] | undefined> {
    const n = batch.length;
    const digits = '(SELECT sum(length(g::text)) FROM generate_series(next_id, next_id + $2 - 1) g)';
    const { rows } = await this.pool.query<{ first: string | null; stored: string }>({
      name: 'petstore-create-batch',
      text: `WITH w AS (
         UPDATE petstore_workspaces SET version = version + 1, next_id = next_id + $2, pet_count = pet_count + $2, bytes = bytes + $3 + ${digits}
         WHERE id = $1 AND next_id + $2 - 1 <= $4 AND pet_count + $2 <= $5 AND bytes + $3 + ${digits} <= $6
         RETURNING next_id - $2 AS first),
       ins AS (
         INSERT INTO petstore_pets (workspace, id, status, json)
         SELECT $1, w.first + t.ord - 1, t.status, '{"id":' || (w.first + t.ord - 1) || t.rest
         FROM w, ROWS FROM (json_to_recordset($7::json) AS (status text, rest text)) WITH ORDINALITY AS t(status, rest, ord)
         RETURNING 1)
       SELECT (SELECT first FROM w), (SELECT count(*) FROM ins) AS stored`,
      values: [
        this.workspace,
        n,
        batch.reduce((sum, item) => sum + item.fixedBytes, 0),
        MAX_ID,
        this.quota.pets,
        this.quota.bytes,
        // One JSON parameter: an array parameter would be escaped a character at a time.
        JSON.stringify(batch.map((item) => ({ status: item.input.status ?? null, rest: item.rest }))),
      ],
    });
    // Stored as their text was built: the same pets, made here rather than read back.
    const first = rows[0]?.first;
    if (first === undefined || first === null || Number(rows[0]?.stored) !== n) return undefined;
    return batch.map((item, i) => buildPet(Number(first) + i, item.input));
  }
}
