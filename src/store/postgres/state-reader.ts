import type pg from 'pg';
import type { Mode } from '../../config/load.js';
import { BatchQueue, rejectEach } from './batch-queue.js';
import { failed } from './pool.js';

/** The shared state as one read found it: the mode, the faults' version and the versions of the workspaces asked for. */
export interface SharedState {
  mode: Mode;
  faultsVersion: number;
  /** Workspace id → version, for those of the asked that exist. */
  versions: Map<string, number>;
  /** Those of the asked that do not exist (not made yet, or removed). */
  missing: string[];
}

interface Waiting {
  workspace: string | undefined;
  resolve(): void;
  reject(error: unknown): void;
}

/** What a state read returns: the shared row, joined with each asked workspace that exists. */
interface StateRow {
  mode: Mode;
  faults_version: string;
  id: string | null;
  version: string | null;
}

/** How often, at most, this instance marks a workspace used (`last_used`). */
const MARK_EVERY_MS = 1000;
/** Workspaces whose last mark this instance remembers; past it, it forgets them all (each is marked once more). */
const MAX_MARKED = 4096;

const READ = `SELECT s.mode, s.faults_version, w.id, w.version FROM petstore_state s LEFT JOIN petstore_workspaces w ON w.id = ANY($1::text[])`;

/** Marks the workspaces of the array parameter `$n` used, those not marked in the last second and not locked by a load or a removal. */
const markUsed = (n: number): string => `UPDATE petstore_workspaces SET last_used = now() WHERE id IN (
    SELECT id FROM petstore_workspaces WHERE id = ANY($${n}::text[]) AND last_used < now() - interval '1 second' FOR UPDATE SKIP LOCKED)`;

const MARK = `${markUsed(1)} RETURNING set_config('synchronous_commit', 'off', true) AS async_commit`;

const MARK_AND_READ = `WITH used AS (${markUsed(2)})
  SELECT s.mode, s.faults_version, w.id, w.version, set_config('synchronous_commit', 'off', true) AS async_commit
  FROM petstore_state s LEFT JOIN petstore_workspaces w ON w.id = ANY($1::text[])`;

/**
 * Reads the shared state before each request, in one round trip shared by
 * the requests that arrive together: a read starts only after every
 * request it answers has arrived, so each sees every change committed
 * before it came (read-your-writes across instances), and the requests
 * that arrive meanwhile wait for the next read. Under load a read serves
 * many requests; alone, a request waits for one round trip.
 *
 * The same statement marks the asked workspaces used (`last_used`), at most
 * once a second each by each instance (a read with none due is a plain
 * SELECT), and skips a row locked by a load or a removal rather than wait
 * (tried again a second later): what decides which open keys' workspaces are least recently
 * used, and which are in use on some instance (PgOpenKeyRemoval). Its
 * commit does not wait for the write-ahead log to reach the disk
 * (`synchronous_commit` off for this statement's transaction alone): a mark
 * lost to a crash of the database costs nothing, and a read should not wait
 * on a flush.
 */
export class StateReader {
  /** When this instance last marked each workspace used, ms. */
  private readonly marked = new Map<string, number>();
  // No gather between reads: every request waits for one, so a pause would cap each instance's rate (at concurrency 10,
  // 1 ms of it held GET /v1/pets to ~6,800 req/s against ~8,500 without).
  private readonly queue = new BatchQueue<Waiting>((batch) => this.read(batch), { failed: rejectEach });

  constructor(
    private readonly pool: pg.Pool,
    /** Takes a read's result into this instance's copies (mode, faults, cache versions) before its requests go on. */
    private readonly apply: (state: SharedState) => Promise<void> | void,
  ) {}

  /** Workspaces used by requests answered without a read, to be marked used (see `used`). */
  private unmarked: string[] = [];

  /**
   * A request of `workspace` answered without a read (the instance hears
   * changes as they come, cache-coherence.ts): the workspace is marked used
   * all the same, at most once a second, by a statement that marks those
   * used meanwhile together, sent after the request.
   */
  used(workspace: string): void {
    const now = Date.now();
    if ((this.marked.get(workspace) ?? -Infinity) > now - MARK_EVERY_MS) return;
    if (this.marked.size >= MAX_MARKED) this.marked.clear();
    this.marked.set(workspace, now);
    if (this.unmarked.push(workspace) > 1) return;
    setImmediate(() => {
      const ids = this.unmarked;
      this.unmarked = [];
      this.pool.query(MARK, [ids]).catch(() => this.forgetMarks(ids));
    });
  }

  /** Marks that failed are tried again with the next use. */
  private forgetMarks(ids: string[]): void {
    for (const id of ids) this.marked.delete(id);
  }

  /** Resolves once a read that started after this call has been applied; `workspace` is the request's, if any. */
  sync(workspace?: string): Promise<void> {
    return new Promise((resolve, reject) => this.queue.push({ workspace, resolve, reject }));
  }

  private async read(batch: Waiting[]): Promise<void> {
    const ids = [...new Set(batch.flatMap((w) => (w.workspace === undefined ? [] : [w.workspace])))];
    const { rows } = await this.query(ids).catch(failed('Could not read the sandbox state'));
    const first = rows[0];
    if (first) {
      const versions = new Map(rows.flatMap((r) => (r.id === null || r.version === null ? [] : [[r.id, Number(r.version)] as const])));
      const missing = ids.filter((id) => !versions.has(id));
      await this.apply({ mode: first.mode, faultsVersion: Number(first.faults_version), versions, missing });
    }
    for (const waiting of batch) waiting.resolve();
  }

  /**
   * The state of `ids`; those this instance has not marked used in the last
   * second are marked by the same statement. Under load, nearly every read
   * marks nothing: a plain SELECT then, with no write to plan, lock or commit.
   */
  private query(ids: string[]): Promise<pg.QueryResult<StateRow>> {
    const now = Date.now();
    const due = ids.filter((id) => (this.marked.get(id) ?? -Infinity) <= now - MARK_EVERY_MS);
    if (due.length === 0) return this.pool.query<StateRow>({ name: 'petstore-sync-read', text: READ, values: [ids] });
    if (this.marked.size >= MAX_MARKED) this.marked.clear();
    for (const id of due) this.marked.set(id, now);
    return this.pool.query<StateRow>({ name: 'petstore-sync', text: MARK_AND_READ, values: [ids, due] });
  }
}
