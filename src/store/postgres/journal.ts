import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import type { JournalStore } from '../backend.js';
import type { JournalListener } from '../journal/types.js';
import { JournalFollowers } from '../journal/followers.js';
import { entryBytes, showRecord } from '../journal/journal.js';
import type { JournalEntry, JournalMemory, JournalRecord, JournalSince, ResponseCheck } from '../journal/types.js';
import type { CoverageCount } from '../journal/coverage-types.js';
import { countsOf, dropCounts, newestPerWorkspace, readCounts } from './journal-batch.js';
import { journalInsert } from './journal-insert.js';
import { JournalTail, noticeOf } from './journal-tail.js';
import type { TailSource } from './pooler.js';
import { BatchQueue } from './batch-queue.js';
import { failed } from './pool.js';

/**
 * How long entries gather between batches while more are waiting, ms. Each
 * batch costs the database a fixed part (the seq lock, each journal's cut,
 * the coverage counts, the total, the notice, the COMMIT) besides its rows:
 * under load, fewer and fuller batches leave it more of the processor for
 * everything else (GET /v1/pets at 50 connections: about a fifth more
 * requests a second than with 2 ms). A live tail or a read through another
 * instance sees an entry that much later at most; a read through this
 * instance waits for its writes, as before.
 */
const GATHER_MS = 10;

/**
 * Entries this instance writes between its vacuums of the journal. Each
 * entry cut leaves a dead row, and PostgreSQL's autovacuum looks at a table
 * once a minute by default: under load the journal's file grew by hundreds
 * of megabytes between its visits, and every write paid for the dead rows
 * it passed. A vacuum every few thousand entries keeps it to a few.
 */
const VACUUM_EVERY = 4096;

/** Entries waiting for their write at most; past it (the database out of reach) new ones are dropped. */
const MAX_PENDING = 10_000;
/**
 * Bytes of entries waiting for their write at most (as `entryBytes` counts
 * them), past which new ones are dropped too: the rows are bounded by the
 * budget, and what waits in this process's memory by this, whatever their size
 * (10,000 entries of 4 KiB bodies would be some 48 MiB).
 */
const MAX_PENDING_BYTES = 16 * 1024 * 1024;

/**
 * The journals in PostgreSQL, shared by every instance: each answered
 * request is written in the background, in batches (the answer never waits
 * for the journal), then each journal is cut to its newest `size` entries
 * and all of them to the byte budget. A read through an instance first
 * waits for that instance's own writes; another instance's requests show
 * once its batch is written, within milliseconds.
 */
export class PgJournal implements JournalStore {
  /** Entries waiting for their write, written a batch a statement with a short gather between (the answers never wait for it). */
  private readonly pending = new BatchQueue<Pending>((batch) => this.write(batch), {
    gatherMs: GATHER_MS,
    failed: (error) => this.onError(error),
  });
  /** Bytes of the entries in `pending` (a batch being written no longer counts). */
  private pendingBytes = 0;
  /** Entries written since the last vacuum, and the vacuum under way. */
  private unvacuumed = 0;
  private vacuuming: Promise<void> | undefined;
  /** Live tails (`/journal/stream`) on this instance: told of the requests it answers at once, of others' through `tail`. */
  private readonly followers = new JournalFollowers();
  /** This process's tag on the rows it writes: its tails learn the others' requests from the database, not their own. */
  private readonly instance = randomUUID();
  private readonly tail: JournalTail | undefined;

  constructor(
    private readonly pool: pg.Pool,
    readonly size: number,
    private readonly budget: number,
    private readonly check: ResponseCheck,
    private readonly onError: (error: unknown) => void,
    /** How tails hear of other instances' writes (a URL to LISTEN on, or polling); without it, tails see this instance's requests only. */
    source?: TailSource,
  ) {
    this.tail =
      source === undefined ? undefined : (
        new JournalTail(source, pool, (ws, seq, record) => this.followers.tell(ws, seq, () => showRecord(record, this.check)), onError)
      );
  }

  accepting(): boolean {
    return this.size > 0 && this.pending.waiting < MAX_PENDING && this.pendingBytes < MAX_PENDING_BYTES;
  }

  add(workspace: string, record: JournalRecord): void {
    const bytes = entryBytes(record);
    if (this.size === 0 || this.pending.waiting >= MAX_PENDING || this.pendingBytes + bytes > MAX_PENDING_BYTES) return;
    this.pendingBytes += bytes;
    this.pending.push({ workspace, record, bytes });
  }

  follow(workspace: string, listener: JournalListener): () => void {
    this.tail?.add(workspace);
    const stop = this.followers.follow(workspace, listener);
    return () => {
      stop();
      if (!this.followers.follows(workspace)) this.tail?.remove(workspace);
    };
  }

  async read(workspace: string, limit: number): Promise<JournalEntry[]> {
    await this.flush();
    const { rows } = await this.pool
      .query<{ record: string }>(
        'SELECT record FROM (SELECT seq, record FROM petstore_journal WHERE workspace = $1 ORDER BY seq DESC LIMIT $2) t ORDER BY seq',
        // Never more than `size`, even while the journal holds a few more (see CUT_SLACK in journal-insert.ts).
        [workspace, Math.min(limit, this.size)],
      )
      .catch(failed('Could not read the journal'));
    return rows.map((r) => showRecord(JSON.parse(r.record) as JournalRecord, this.check));
  }

  /**
   * The entries after `after` (a row's seq: one sequence for all journals),
   * once this instance's writes are done and its tail knows where it starts.
   * Which entries a journal dropped is not kept: a gap is reported whenever
   * none kept is at or before `after`, though the cut may have dropped
   * exactly the entries up to it.
   */
  async since(workspace: string, after: number): Promise<JournalSince> {
    await this.flush();
    await this.tail?.ready();
    const { rows } = await this.pool
      .query<{ seq: string; record: string; oldest: string | null }>(
        `SELECT seq, record, (SELECT min(seq) FROM petstore_journal WHERE workspace = $1) AS oldest
           FROM (SELECT seq, record FROM petstore_journal WHERE workspace = $1 AND seq > $2 ORDER BY seq DESC LIMIT $3) t ORDER BY seq`,
        [workspace, after, this.size],
      )
      .catch(failed('Could not read the journal'));
    const oldest = rows[0]?.oldest;
    const entries = rows.map((r) => ({ id: Number(r.seq), entry: showRecord(JSON.parse(r.record) as JournalRecord, this.check) }));
    return { entries, gap: typeof oldest === 'string' && Number(oldest) > after };
  }

  async clear(workspace: string): Promise<number> {
    await this.flush();
    const { rows } = await this.pool
      .query<{ n: string }>(
        `WITH gone AS (DELETE FROM petstore_journal WHERE workspace = $1 RETURNING bytes),
              counts AS (DELETE FROM petstore_coverage WHERE workspace = $1)
         UPDATE petstore_journal_total SET bytes = bytes - (SELECT coalesce(sum(bytes), 0) FROM gone) RETURNING (SELECT count(*) FROM gone) AS n`,
        [workspace],
      )
      .catch(failed('Could not clear the journal'));
    return Number(rows[0]?.n ?? 0);
  }

  /** Counted by the batches (`countsOf`), so a read first waits for this instance's own. */
  async counts(workspace: string | undefined): Promise<CoverageCount[]> {
    await this.flush();
    return readCounts(this.pool, workspace);
  }

  async memory(): Promise<JournalMemory> {
    await this.flush();
    const { rows } = await this.pool
      .query<{ bytes: string; kept: string; evicted: string }>(
        'SELECT (SELECT bytes FROM petstore_journal_total) AS bytes, count(*) AS kept, (SELECT journal_evicted FROM petstore_state) AS evicted FROM petstore_journal',
      )
      .catch(failed('Could not read the journal'));
    const row = rows[0];
    return { bytes: Number(row?.bytes ?? 0), budget: this.budget, kept: Number(row?.kept ?? 0), evicted: Number(row?.evicted ?? 0) };
  }

  /** The backend closing: the live tails stop listening, and what was captured is written, the vacuum under way done. */
  async close(): Promise<void> {
    this.tail?.close();
    await this.flush();
    await this.vacuuming;
  }

  /** Resolves when what this instance captured so far is written (or dropped); a read does not wait for a vacuum. */
  async flush(): Promise<void> {
    await this.pending.idle();
  }

  /**
   * One statement a batch: the entries inserted, each journal they join cut
   * to its newest `size` (counting the batch), and the running total of
   * bytes moved by both. Only when that total passes the budget does a
   * second step drop the oldest entries of all journals.
   */
  private async write(batch: Pending[]): Promise<void> {
    this.pendingBytes -= batch.reduce((n, b) => n + b.bytes, 0);
    const kept = newestPerWorkspace(batch, this.size);
    const { rows } = await this.pool.query<{ bytes: string; seqs: string[] | null }>(
      journalInsert(kept, [this.size, this.instance, noticeOf(kept.map((b) => b.workspace)), JSON.stringify(countsOf(batch))]),
    );
    // With a tail, it tells every instance's entries, these too, in seq order; without one (no other instance is
    // heard), these are told once written, with the seq each row was given (in the batch's order).
    const seqs = rows[0]?.seqs ?? [];
    if (!this.tail) kept.forEach(({ workspace, record }, i) => this.followers.tell(workspace, Number(seqs[i]), () => showRecord(record, this.check)));
    if (Number(rows[0]?.bytes ?? 0) > this.budget) await this.evict();
    this.unvacuumed += kept.length;
    if (this.unvacuumed >= VACUUM_EVERY && !this.vacuuming) {
      this.unvacuumed = 0;
      this.vacuuming = this.vacuum().finally(() => (this.vacuuming = undefined));
    }
  }

  /**
   * Clears the dead rows of cut entries, beside the writes (a vacuum holds no
   * lock they wait for). SKIP_LOCKED: when another instance is vacuuming it
   * already, there is nothing to wait for. A role that does not own the table
   * gets a warning, not an error, and autovacuum is left to do the work.
   */
  private async vacuum(): Promise<void> {
    await this.pool.query('VACUUM (SKIP_LOCKED) petstore_journal').catch(this.onError);
  }

  /** Drops the oldest entries of all journals, a page at a time, until they fit the budget. */
  private async evict(): Promise<void> {
    const emptied = new Set<string>();
    for (;;) {
      const { rows } = await this.pool.query<{ seq: string; bytes: number; total: string; workspace: string }>(
        'SELECT seq, bytes, workspace, (SELECT bytes FROM petstore_journal_total) AS total FROM petstore_journal ORDER BY seq LIMIT 256',
      );
      let excess = Number(rows[0]?.total ?? 0) - this.budget;
      if (excess <= 0 || rows.length === 0) return dropCounts(this.pool, [...emptied]);
      const seqs: string[] = [];
      for (const row of rows) {
        if (excess <= 0) break;
        seqs.push(row.seq);
        emptied.add(row.workspace);
        excess -= row.bytes;
      }
      await this.pool.query(
        `WITH gone AS (DELETE FROM petstore_journal WHERE seq = ANY($1::bigint[]) RETURNING bytes),
              t AS (UPDATE petstore_journal_total SET bytes = bytes - (SELECT coalesce(sum(bytes), 0) FROM gone))
         UPDATE petstore_state SET journal_evicted = journal_evicted + (SELECT count(*) FROM gone)`,
        [seqs],
      );
    }
  }
}

/** An entry waiting for its write, with the bytes it is accounted. */
interface Pending {
  workspace: string;
  record: JournalRecord;
  bytes: number;
}
