import type pg from 'pg';
import type { MaybePromise, WorkspaceData, WorkspaceReads, WorkspaceStore } from '../backend.js';
import { workspaceIdsOf } from '../workspace-id.js';
import { WorkspaceUsers } from '../workspace-users.js';
import { UsesInFlight } from '../uses-in-flight.js';
import type { OpenKeyPolicy } from '../open-key-policy.js';
import type { Quota } from '../rules.js';
import { seededGeneration } from '../load-rules.js';
import { failed, transaction } from './pool.js';
import { PgOpenKeyRemoval } from './open-key-removal.js';
import { ReadCache } from './read-cache.js';
import { PgWorkspace } from './workspace.js';
import { insertPets, WorkspaceMissing } from './workspace-rows.js';
import { WriteTimes, type WriteListener } from '../write-times.js';

export interface PgWorkspacesOptions {
  pool: pg.Pool;
  /** The secret workspace ids are keyed with, kept in the database so every instance names a key alike. */
  secret: string;
  quota: Quota;
  /** What a new workspace is seeded with. */
  seed: { seed: number; count: number };
  /** Most workspaces in use at once by this process (`--max-workspaces`). */
  maxOpen: number;
  /** Bytes of reads this process may keep for reuse (ReadCache). */
  cacheBytes: number;
  /** Resolves once every instance that keeps reads heard the changes committed so far (cache-coherence.ts): a write waits for it. */
  published?: () => Promise<void>;
  /**
   * With open keys: the policy for workspaces of keys not in `configured`,
   * which alone are ever removed, and only when `remove` (a serving
   * sandbox; the QA commands remove nothing).
   */
  openKeys?: OpenKeyPolicy & { configured: readonly string[]; remove: boolean };
}

/**
 * The workspaces in PostgreSQL, by API key. A workspace is created and
 * seeded in one transaction on its first use by any instance; instances
 * racing to create it wait on its row, and all but one find it made. With
 * open keys, the row records whether its key was configured where it was
 * made: only open keys' workspaces are ever removed (PgOpenKeyRemoval).
 * Knowing that one exists is remembered until the state read before a
 * request finds it gone (`forget`); it is then made afresh.
 */
export class PgWorkspaces implements WorkspaceStore {
  /** Ids are the same HMAC-SHA256 of the key, under the database's secret, as every backend's. */
  private readonly ids: (key: string) => string;
  /** Workspaces known to exist, by id. */
  private readonly known = new Map<string, PgWorkspace>();
  /** Requests using each workspace now, by id: the cap counts these. */
  private readonly users: WorkspaceUsers;
  /** Reads of pets, reused while their workspace's version stands (see ReadCache). */
  readonly cache: ReadCache;

  /** Ids of the configured keys' workspaces, with open keys (without, every key is configured): never removed, their rows' `open_key` cleared. */
  private readonly configured: ReadonlySet<string> | undefined;
  private readonly removal: PgOpenKeyRemoval | undefined;
  /** Where every workspace tells of its writes (`listen`). */
  private readonly writes = new WriteTimes();
  /** Uses under way: `close` refuses new ones and waits for these, before the pool ends. */
  private readonly uses = new UsesInFlight();

  constructor(private readonly options: PgWorkspacesOptions) {
    this.ids = workspaceIdsOf(Buffer.from(options.secret, 'hex'));
    this.cache = new ReadCache(options.cacheBytes);
    this.users = new WorkspaceUsers(options.maxOpen);
    const policy = options.openKeys;
    if (!policy) return;
    this.configured = new Set(policy.configured.map((key) => this.idOf(key)));
    if (!policy.remove) return;
    this.removal = new PgOpenKeyRemoval(
      options.pool,
      policy,
      () => this.users.ids(),
      (id) => this.forget(id),
      options.published,
    );
  }

  /** A workspace found gone from the database: this instance's copies go, and its next use makes it afresh. */
  forget(id: string): void {
    this.known.delete(id);
    this.cache.forget(id);
  }

  idOf(key: string): string {
    return this.ids(key);
  }

  async use<T>(key: string, work: (workspace: WorkspaceData) => MaybePromise<T>): Promise<T> {
    const id = this.idOf(key);
    const refused = this.uses.enter();
    if (refused) throw refused;
    try {
      this.users.enter(id);
    } catch (error) {
      this.uses.leave();
      throw error;
    }
    try {
      try {
        return await work(this.known.get(id) ?? (await this.ensure(id)));
      } catch (error) {
        // Removed (an open key's, unused) while this request waited on its row: the removal is over, so the key
        // gets what a new key gets, a fresh seeded workspace, and the request is answered from it.
        if (!(error instanceof WorkspaceMissing)) throw error;
        this.forget(id);
        return await work(await this.ensure(id));
      }
    } finally {
      this.users.leave(id);
      this.uses.leave();
    }
  }

  /** A workspace's every read may go to the database: none is handed out for synchronous work. */
  peek(): undefined {
    return undefined;
  }

  /**
   * A known workspace's reads: a list or a pet this process keeps at the
   * workspace's newest version is answered at once, with no `use` (it reads
   * nothing, so nothing can be removed or closed under it); any other read
   * goes through `use`.
   */
  reader(key: string): WorkspaceReads | undefined {
    const workspace = this.known.get(this.idOf(key));
    if (!workspace) return undefined;
    return {
      page: (limit, status) => workspace.keptPage(limit, status) ?? this.use(key, (ws) => ws.page(limit, status)),
      getText: (id) => {
        const kept = workspace.keptText(id);
        return kept ? kept.text : this.use(key, (ws) => ws.getText(id));
      },
    };
  }

  openIds(): string[] {
    return [...this.known.keys()];
  }

  /** Workspaces in use by this instance's requests now: what `--max-workspaces` caps. */
  openCount(): number {
    return this.users.size;
  }

  /** Workspaces of open keys this instance removed from the database since start. */
  removedCount(): number {
    return this.removal?.removed ?? 0;
  }

  listen(listener: WriteListener): void {
    this.writes.listen(listener);
  }

  /** Refuses new uses and waits for those under way; stops the removal of open keys' workspaces, once the one under way is done. */
  async close(): Promise<void> {
    await this.uses.close();
    await this.removal?.close();
  }

  /**
   * The workspace, created and seeded in one transaction if no instance
   * made it yet. Its first version is the time in microseconds, above any
   * that a removed workspace of the same id reached, so no instance takes
   * reads cached of that one for this one's.
   */
  private async ensure(id: string): Promise<PgWorkspace> {
    const openKey = this.configured !== undefined && !this.configured.has(id);
    const made = await transaction(this.options.pool, async (client) => {
      const made = await client.query(
        `INSERT INTO petstore_workspaces (id, next_id, pet_count, bytes, open_key, version)
         VALUES ($1, 1, 0, 0, $2, (extract(epoch FROM clock_timestamp()) * 1000000)::bigint) ON CONFLICT (id) DO NOTHING RETURNING id`,
        [id, openKey],
      );
      // Made for an open key elsewhere, configured here: never removed from now on.
      if (made.rowCount === 0 && !openKey) await client.query('UPDATE petstore_workspaces SET open_key = false WHERE id = $1 AND open_key', [id]);
      if (made.rowCount === 0) return false;
      const { pets, bytes, nextId } = seededGeneration(this.options.seed);
      await insertPets(client, id, pets);
      await client.query('UPDATE petstore_workspaces SET version = version + 1, next_id = $2, pet_count = $3, bytes = $4 WHERE id = $1', [
        id,
        nextId,
        pets.length,
        bytes,
      ]);
      return true;
    }).catch(failed('Could not open the workspace'));
    // One more open key's workspace: those beyond the cap go, in the background.
    if (made && openKey) void this.removal?.request();
    const workspace = new PgWorkspace(this.options.pool, id, this.options.quota, this.cache, this.writes, this.options.published);
    if (this.known.size >= 4096) this.known.clear();
    this.known.set(id, workspace);
    return workspace;
  }
}
