import type { MaybePromise, WorkspaceStore } from '../backend.js';
import { OpenKeyUse, type OpenKeyPolicy } from '../open-key-policy.js';
import type { Quota } from '../rules.js';
import { seededGeneration } from '../load-rules.js';
import { workspaceIdsOf } from '../workspace-id.js';
import { WorkspaceUsers } from '../workspace-users.js';
import { MemoryWorkspace } from './workspace.js';
import { WriteTimes, type WriteListener } from '../write-times.js';

export interface MemoryWorkspacesOptions {
  /** What a new workspace is seeded with. */
  seed: { seed: number; count: number };
  quota: Quota;
  /** Most workspaces in use at once (`--max-workspaces`). */
  maxOpen: number;
  /** The secret workspace ids are keyed with; default: a new random one, never written anywhere. */
  secret?: Uint8Array;
  /** With open keys: the policy for workspaces of keys not in `configured`, which alone are ever removed. */
  openKeys?: OpenKeyPolicy & { configured: readonly string[] };
}

interface Entry {
  workspace: MemoryWorkspace;
  openKey: boolean;
  lastUsed: number;
}

/**
 * The workspaces of the memory store, by API key: made and seeded on first
 * use, kept for the life of the process. Ids are every backend's keyed hash,
 * under a secret made at start and never written anywhere. With open keys,
 * those beyond `--open-key-workspaces` or unused past `--open-key-ttl` are
 * removed, least recently used first, never while in use, by the rule the
 * file store keeps (`OpenKeyUse`).
 */
export class MemoryWorkspaces implements WorkspaceStore {
  /** By id. */
  private readonly entries = new Map<string, Entry>();
  /** Open keys' entries, least recently used first: which of them goes, and when. */
  private readonly openKeyUse = new OpenKeyUse<Entry>();
  readonly idOf: (key: string) => string;
  private readonly configured: ReadonlySet<string>;
  /** Requests using each workspace now: the cap counts these, and none of them is removed. */
  private readonly users: WorkspaceUsers;
  private readonly sweeper: ReturnType<typeof setInterval> | undefined;
  private removed = 0;
  /** Where every workspace tells of its writes (`listen`). */
  private readonly writes = new WriteTimes();

  constructor(private readonly options: MemoryWorkspacesOptions) {
    this.idOf = workspaceIdsOf(options.secret ?? crypto.getRandomValues(new Uint8Array(32)));
    this.configured = new Set((options.openKeys?.configured ?? []).map(this.idOf));
    this.users = new WorkspaceUsers(options.maxOpen);
    const ttl = options.openKeys?.ttlMs;
    if (ttl === undefined) return;
    this.sweeper = setInterval(() => this.trim(), Math.min(ttl, 30_000) / 2);
    // A timer that keeps no process alive, where there is such a thing.
    (this.sweeper as { unref?: () => void }).unref?.();
  }

  async use<T>(key: string, work: (workspace: MemoryWorkspace) => MaybePromise<T>): Promise<T> {
    const id = this.idOf(key);
    this.users.enter(id);
    const using = this.touch(id, this.entries.get(id) ?? this.make(id));
    try {
      return await work(using.workspace);
    } finally {
      this.users.leave(id);
      this.touch(id, using);
    }
  }

  peek(key: string): MemoryWorkspace | undefined {
    const id = this.idOf(key);
    const entry = this.entries.get(id);
    return entry && this.touch(id, entry).workspace;
  }

  /** A use of `key`'s items (an API served by convention): an open key's workspace counts as used, made if it is new. */
  usedByItems(key: string): void {
    const id = this.idOf(key);
    if (this.options.openKeys && !this.configured.has(id)) this.touch(id, this.entries.get(id) ?? this.make(id));
  }

  openIds(): string[] {
    return [...this.entries.keys()];
  }

  /** Workspaces in use by requests now: what `--max-workspaces` caps (all stay in memory, none is ever closed). */
  openCount(): number {
    return this.users.size;
  }

  removedCount(): number {
    return this.removed;
  }

  listen(listener: WriteListener): void {
    this.writes.listen(listener);
  }

  close(): Promise<void> {
    clearInterval(this.sweeper);
    return Promise.resolve();
  }

  private make(id: string): Entry {
    const openKey = this.options.openKeys !== undefined && !this.configured.has(id);
    const entry = { workspace: new MemoryWorkspace(seededGeneration(this.options.seed), this.options.quota, this.writes), openKey, lastUsed: Date.now() };
    this.entries.set(id, entry);
    if (!openKey) return entry;
    this.openKeyUse.use(id, entry);
    // The one just made is in use (`use` entered it first), so it stays.
    this.trim();
    return entry;
  }

  /** Makes `entry` the most recently used. */
  private touch(id: string, entry: Entry): Entry {
    entry.lastUsed = Date.now();
    if (entry.openKey && this.entries.get(id) === entry) this.openKeyUse.use(id, entry);
    return entry;
  }

  /** Removes the open keys' workspaces due (`OpenKeyUse.due`), skipping any in use. */
  private trim(): void {
    const policy = this.options.openKeys;
    if (!policy) return;
    for (const [id, , reason] of this.openKeyUse.due(policy, Date.now())) {
      if (this.users.holds(id)) continue;
      this.openKeyUse.delete(id);
      this.entries.delete(id);
      this.removed += 1;
      policy.onRemoved?.(id, reason);
    }
  }
}
