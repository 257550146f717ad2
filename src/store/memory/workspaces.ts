import type { MaybePromise, WorkspaceStore } from '../../backend.js';
import type { OpenKeyPolicy } from '../open-key-workspaces.js';
import type { Quota } from '../pet-index.js';
import { generatePets } from '../seed.js';
import { workspaceIdsOf } from '../workspace-id.js';
import { WorkspaceUsers } from '../workspace-users.js';
import { MemoryWorkspace } from './workspace.js';

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
 * removed, least recently used first, never while in use, as on the file
 * store.
 */
export class MemoryWorkspaces implements WorkspaceStore {
  /** By id, least recently used first. */
  private readonly entries = new Map<string, Entry>();
  readonly idOf: (key: string) => string;
  private readonly configured: ReadonlySet<string>;
  /** Requests using each workspace now: the cap counts these, and none of them is removed. */
  private readonly users: WorkspaceUsers;
  private readonly sweeper: ReturnType<typeof setInterval> | undefined;
  private removed = 0;

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
      using.lastUsed = Date.now();
    }
  }

  peek(key: string): MemoryWorkspace | undefined {
    const id = this.idOf(key);
    const entry = this.entries.get(id);
    return entry && this.touch(id, entry).workspace;
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

  close(): Promise<void> {
    clearInterval(this.sweeper);
    return Promise.resolve();
  }

  private make(id: string): Entry {
    const { seed, count } = this.options.seed;
    const openKey = this.options.openKeys !== undefined && !this.configured.has(id);
    const entry = { workspace: new MemoryWorkspace(generatePets(seed, count), this.options.quota), openKey, lastUsed: Date.now() };
    this.entries.set(id, entry);
    if (openKey) this.trim(id);
    return entry;
  }

  /** Makes `entry` the most recently used. */
  private touch(id: string, entry: Entry): Entry {
    entry.lastUsed = Date.now();
    this.entries.delete(id);
    this.entries.set(id, entry);
    return entry;
  }

  /**
   * Removes open keys' workspaces, least recently used first: those unused
   * past the TTL and those beyond the cap, skipping any in use and `keep`
   * (the one just made).
   */
  private trim(keep?: string): void {
    const policy = this.options.openKeys;
    if (!policy) return;
    const stale = Date.now() - policy.ttlMs;
    let kept = 0;
    for (const entry of this.entries.values()) if (entry.openKey) kept += 1;
    for (const [id, entry] of [...this.entries]) {
      if (!entry.openKey || id === keep || this.users.holds(id)) continue;
      const reason =
        entry.lastUsed < stale ? 'ttl'
        : kept > policy.max ? 'cap'
        : undefined;
      if (!reason) continue;
      this.entries.delete(id);
      kept -= 1;
      this.removed += 1;
      policy.onRemoved?.(id, reason);
    }
  }
}
