import type pg from 'pg';
import type { OpenKeyPolicy, RemovalReason } from '../open-key-policy.js';
import { transaction } from './pool.js';

/**
 * How long a workspace must have gone unused, by any instance, before it may
 * be removed at all. Each instance writes `last_used` at most once a second
 * (StateReader) and every few seconds for the workspaces its requests hold
 * (TOUCH_MS), so a workspace in use anywhere is never that old.
 */
const IN_USE_GRACE_MS = 10_000;
/** How often the workspaces this instance's requests hold are marked used. */
const TOUCH_MS = 4_000;
/** Workspaces removed per transaction: a long backlog goes in short steps. */
const BATCH = 200;
/** Two instances never remove at once ("petstore open keys"); one that finds it taken leaves the work to the other. */
const LOCK = 0x5e7_0be4;

/**
 * The least recently used first, those past the TTL and those beyond the cap
 * (ranked among all open keys' workspaces, fresh ones too), but none used in
 * the grace nor by this instance's requests now.
 */
const VICTIMS = `WITH ranked AS (
    SELECT id, last_used, row_number() OVER (ORDER BY last_used DESC, id DESC) AS rank FROM petstore_workspaces WHERE open_key)
  SELECT id, last_used < now() - $2 * interval '1 millisecond' AS expired FROM ranked
  WHERE (rank > $1 OR last_used < now() - $2 * interval '1 millisecond')
    AND last_used < now() - $3 * interval '1 millisecond' AND id <> ALL($4::text[])
  ORDER BY last_used LIMIT ${BATCH}`;

/** Everything kept of a workspace, by id; the workspace's row last (checkpoints refer to it). A test times requests into these. */
export const REMOVE = [
  'DELETE FROM petstore_pets WHERE workspace = ANY($1::text[])',
  'DELETE FROM petstore_checkpoints WHERE workspace = ANY($1::text[])',
  `WITH gone AS (DELETE FROM petstore_journal WHERE workspace = ANY($1::text[]) RETURNING bytes)
   UPDATE petstore_journal_total SET bytes = bytes - (SELECT coalesce(sum(bytes), 0) FROM gone)`,
  'DELETE FROM petstore_coverage WHERE workspace = ANY($1::text[])',
  'DELETE FROM petstore_item_spaces WHERE workspace = ANY($1::text[])',
  'DELETE FROM petstore_item_collections WHERE workspace = ANY($1::text[])',
  'DELETE FROM petstore_items WHERE workspace = ANY($1::text[])',
  // Every instance reads the faults again at its next request.
  `WITH gone AS (DELETE FROM petstore_faults WHERE workspace = ANY($1::text[]) RETURNING id)
   UPDATE petstore_state SET faults_version = faults_version + 1 WHERE EXISTS (SELECT 1 FROM gone)`,
  'DELETE FROM petstore_workspaces WHERE id = ANY($1::text[])',
];

/**
 * Removes open keys' workspaces from the database beyond
 * `--open-key-workspaces` or past `--open-key-ttl`, least recently used
 * first: when this instance made a new one (`request`) and every few
 * seconds. Each step is one transaction under an advisory lock, its rows
 * locked and checked again, so a workspace touched meanwhile stays.
 */
export class PgOpenKeyRemoval {
  private running: Promise<void> | undefined;
  private again = false;
  private count = 0;
  /** Whether the last try failed: a database out of reach is reported once, not every few seconds. */
  private failing = false;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly pool: pg.Pool,
    private readonly policy: OpenKeyPolicy,
    /** Workspaces this instance's requests hold now: never removed, and marked used every few seconds. */
    private readonly inUse: () => string[],
    /** Told of each removed id, before it is counted: this instance's copies go. */
    private readonly forget: (id: string) => void,
    /** Resolves once every instance that keeps reads heard the removals committed so far: they are counted after it. */
    private readonly published: () => Promise<void> = async () => undefined,
  ) {
    const period = Math.max(500, Math.min(policy.ttlMs / 2, TOUCH_MS));
    this.timer = setInterval(() => void this.tick(), period).unref();
  }

  /** Workspaces removed by this instance since start. */
  get removed(): number {
    return this.count;
  }

  /** Trims now, or once more after the trim under way. */
  request(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = this.loop().finally(() => (this.running = undefined));
    return this.running;
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  private async tick(): Promise<void> {
    const held = this.inUse();
    if (held.length > 0) await this.pool.query('UPDATE petstore_workspaces SET last_used = now() WHERE id = ANY($1::text[])', [held]).catch(() => undefined);
    await this.request();
  }

  private async loop(): Promise<void> {
    do {
      this.again = false;
      try {
        while ((await this.step()) === BATCH);
        this.failing = false;
      } catch (error) {
        if (!this.failing)
          this.policy.warn?.(`Could not remove open keys' workspaces from the database: ${(error as Error).message}. Tried again every few seconds.`);
        this.failing = true;
      }
    } while (this.again);
  }

  /** One transaction: up to BATCH workspaces removed. Returns how many. */
  private async step(): Promise<number> {
    const removed = await transaction(this.pool, async (client) => {
      const { rows: lock } = await client.query<{ got: boolean }>('SELECT pg_try_advisory_xact_lock($1) AS got', [LOCK]);
      if (!lock[0]?.got) return [];
      const { rows } = await client.query<{ id: string; expired: boolean }>(VICTIMS, [this.policy.max, this.policy.ttlMs, IN_USE_GRACE_MS, this.inUse()]);
      if (rows.length === 0) return [];
      const held = await client.query<{ id: string }>(
        `SELECT id FROM petstore_workspaces WHERE id = ANY($1::text[]) AND open_key AND last_used < now() - $2 * interval '1 millisecond' FOR UPDATE SKIP LOCKED`,
        [rows.map((r) => r.id), IN_USE_GRACE_MS],
      );
      const ids = held.rows.map((r) => r.id);
      for (const sql of REMOVE) await client.query(sql, [ids]);
      const expired = new Set(rows.filter((r) => r.expired).map((r) => r.id));
      return ids.map((id): [string, RemovalReason] => [id, expired.has(id) ? 'ttl' : 'cap']);
    });
    if (removed.length > 0) await this.published();
    for (const [id, reason] of removed) {
      this.forget(id);
      this.count += 1;
      this.policy.onRemoved?.(id, reason);
    }
    return removed.length;
  }
}
