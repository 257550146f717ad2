import type pg from 'pg';
import { buildPet, idAt, type Quota } from '../rules.js';
import type { NewPet, Pet } from '../types.js';
import { BatchQueue, rejectEach } from './batch-queue.js';
import { takeIdsSql } from './id-sql.js';

/** A create waiting for its statement: what was sent and the pet's JSON after the id. */
export interface QueuedCreate {
  input: NewPet;
  rest: string;
  fixedBytes: number;
  resolve(pet: Pet): void;
  reject(error: unknown): void;
}

/** A batch of creates: their ids taken (id-sql.ts), in arrival order (the ordinality of `$6`), and their pets stored, in one statement. */
const CREATE_BATCH = (() => {
  const take = takeIdsSql({ count: '$2', fixedBytes: '$3', quotaPets: '$4', quotaBytes: '$5' });
  const id = take.idAt('(t.ord - 1)');
  return `WITH ${take.with},
    ins AS (
      INSERT INTO petstore_pets (workspace, id, status, json)
      SELECT $1, ${id}, t.status, '{"id":' || ${id} || t.rest
      FROM w, ROWS FROM (json_to_recordset($6::json) AS (status text, rest text)) WITH ORDINALITY AS t(status, rest, ord)
      RETURNING 1)
    SELECT (SELECT first FROM w), (SELECT count(*) FROM ins) AS stored`;
})();

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
    const { rows } = await this.pool.query<{ first: string | null; stored: string }>({
      name: 'petstore-create-batch',
      text: CREATE_BATCH,
      values: [
        this.workspace,
        n,
        batch.reduce((sum, item) => sum + item.fixedBytes, 0),
        this.quota.pets,
        this.quota.bytes,
        // One JSON parameter: an array parameter would be escaped a character at a time.
        JSON.stringify(batch.map((item) => ({ status: item.input.status ?? null, rest: item.rest }))),
      ],
    });
    // Stored as their text was built: the same pets, made here rather than read back.
    const first = rows[0]?.first;
    if (first === undefined || first === null || Number(rows[0]?.stored) !== n) return undefined;
    return batch.map((item, i) => buildPet(idAt(Number(first), i), item.input));
  }
}
