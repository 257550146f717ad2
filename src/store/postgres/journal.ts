import type pg from 'pg';
import type { JournalStore } from '../../backend.js';
import type { JournalListener } from '../../control/journal.js';
import { JournalFollowers } from '../../control/journal-followers.js';
import { entryBytes, showRecord, type JournalEntry, type JournalMemory, type JournalRecord, type ResponseCheck } from '../../control/journal.js';
import { databaseFailure } from './pool.js';

/** Entries waiting for their write at most; past it (the database out of reach) new ones are dropped. */
const MAX_PENDING = 10_000;

/**
 * The journals in PostgreSQL, shared by every instance: each answered
 * request is written in the background, in batches (the answer never waits
 * for the journal), then each journal is cut to its newest `size` entries
 * and all of them to the byte budget. A read through an instance first
 * waits for that instance's own writes; another instance's requests show
 * once its batch is written, within milliseconds.
 */
export class PgJournal implements JournalStore {
  private pending: { workspace: string; record: JournalRecord }[] = [];
  private writing: Promise<void> | undefined;
  /** Live tails (`/journal/stream`) on this instance: they see the requests it answers. */
  private readonly followers = new JournalFollowers();

  constructor(
    private readonly pool: pg.Pool,
    readonly size: number,
    private readonly budget: number,
    private readonly check: ResponseCheck,
    private readonly onError: (error: unknown) => void,
  ) {}

  add(workspace: string, record: JournalRecord): void {
    if (this.size === 0 || this.pending.length >= MAX_PENDING) return;
    this.pending.push({ workspace, record });
    this.writing ??= this.writeAll();
    this.followers.tell(workspace, () => showRecord(record, this.check));
  }

  follow(workspace: string, listener: JournalListener): () => void {
    return this.followers.follow(workspace, listener);
  }

  async read(workspace: string, limit: number): Promise<JournalEntry[]> {
    await this.flush();
    const { rows } = await this.pool
      .query<{ record: string }>(
        'SELECT record FROM (SELECT seq, record FROM petstore_journal WHERE workspace = $1 ORDER BY seq DESC LIMIT $2) t ORDER BY seq',
        [workspace, limit],
      )
      .catch((error: unknown) => {
        throw databaseFailure(error, 'Could not read the journal');
      });
    return rows.map((r) => showRecord(JSON.parse(r.record) as JournalRecord, this.check));
  }

  async clear(workspace: string): Promise<number> {
    await this.flush();
    const result = await this.pool.query('DELETE FROM petstore_journal WHERE workspace = $1', [workspace]).catch((error: unknown) => {
      throw databaseFailure(error, 'Could not clear the journal');
    });
    return result.rowCount ?? 0;
  }

  async memory(): Promise<JournalMemory> {
    await this.flush();
    const { rows } = await this.pool
      .query<{ bytes: string; kept: string; evicted: string }>(
        'SELECT coalesce(sum(bytes), 0) AS bytes, count(*) AS kept, (SELECT journal_evicted FROM petstore_state) AS evicted FROM petstore_journal',
      )
      .catch((error: unknown) => {
        throw databaseFailure(error, 'Could not read the journal');
      });
    const row = rows[0];
    return { bytes: Number(row?.bytes ?? 0), budget: this.budget, kept: Number(row?.kept ?? 0), evicted: Number(row?.evicted ?? 0) };
  }

  /** Resolves when what this instance captured so far is written (or dropped). */
  async flush(): Promise<void> {
    while (this.writing) await this.writing;
  }

  private async writeAll(): Promise<void> {
    // Let the requests answered in this turn join the batch.
    await new Promise((resolve) => setImmediate(resolve));
    while (this.pending.length > 0) {
      const batch = this.pending;
      this.pending = [];
      await this.write(batch).catch(this.onError);
    }
    this.writing = undefined;
  }

  private async write(batch: { workspace: string; record: JournalRecord }[]): Promise<void> {
    await this.pool.query('INSERT INTO petstore_journal (workspace, record, bytes) SELECT * FROM unnest($1::text[], $2::text[], $3::int[])', [
      batch.map((b) => b.workspace),
      batch.map((b) => JSON.stringify(b.record)),
      batch.map((b) => entryBytes(b.record)),
    ]);
    for (const workspace of new Set(batch.map((b) => b.workspace))) {
      await this.pool.query(
        `DELETE FROM petstore_journal WHERE workspace = $1 AND seq <= (
           SELECT seq FROM petstore_journal WHERE workspace = $1 ORDER BY seq DESC OFFSET $2 LIMIT 1)`,
        [workspace, this.size],
      );
    }
    await this.pool.query(
      `WITH gone AS (
           DELETE FROM petstore_journal WHERE seq IN (
             SELECT seq FROM (SELECT seq, sum(bytes) OVER (ORDER BY seq DESC) AS total FROM petstore_journal) t WHERE total > $1)
           RETURNING 1)
         UPDATE petstore_state SET journal_evicted = journal_evicted + (SELECT count(*) FROM gone) WHERE (SELECT count(*) FROM gone) > 0`,
      [this.budget],
    );
  }
}
