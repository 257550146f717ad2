/** A cached answer: the workspace version it was read at, and its size. */
interface Entry {
  version: number;
  value: unknown;
  bytes: number;
}

/** Workspaces whose newest version is remembered at most; past it the oldest are forgotten (their reads go to the database). */
const MAX_WORKSPACES = 4096;

/**
 * Reads of pets kept by this instance, each labelled with the workspace
 * version (`petstore_workspaces.version`, bumped by every change of its
 * pets) it was read at, in the same statement. Before every /v1 request
 * the backend reads the versions of the shared state (`StateReader`) and
 * reports them here; a read is answered from the cache only when its entry
 * was read at exactly the newest version seen, so it is never older than
 * the request: a change made through any instance is seen by the next
 * request to any other. An instance that listens hears the versions as they
 * change instead, and asks nothing before a request (cache-coherence.ts). Bounded in bytes; least recently used entries go
 * first.
 */
export class ReadCache {
  private readonly entries = new Map<string, Entry>();
  private readonly newest = new Map<string, number>();
  private bytes = 0;
  /** Counts the resets: a read that began before the last one is not kept (it may predate a change that was not heard). */
  private generation = 0;

  constructor(private readonly budget: number) {}

  /** The version of `workspace` read from the database now. */
  observe(workspace: string, version: number): void {
    const known = this.newest.get(workspace);
    if (known !== undefined && known >= version) return;
    if (known === undefined && this.newest.size >= MAX_WORKSPACES) this.forgetOldest();
    this.newest.set(workspace, version);
  }

  /** The answer to `key` in `workspace` when it was read at the newest version seen. */
  get<T>(workspace: string, key: string): T | undefined {
    const id = `${workspace}\n${key}`;
    const entry = this.entries.get(id);
    if (!entry || entry.version !== this.newest.get(workspace)) return undefined;
    // Most recently used last: eviction takes the first.
    this.entries.delete(id);
    this.entries.set(id, entry);
    return entry.value as T;
  }

  /** What to pass `set` for a read that begins now. */
  get epoch(): number {
    return this.generation;
  }

  /** Keeps an answer read at `version`, by a read that began at `epoch`; it also tells the cache that version exists. */
  set(workspace: string, key: string, version: number, value: unknown, bytes: number, epoch: number): void {
    if (epoch !== this.generation) return;
    this.observe(workspace, version);
    if (version !== this.newest.get(workspace) || bytes > this.budget / 4) return;
    const id = `${workspace}\n${key}`;
    this.drop(id);
    this.entries.set(id, { version, value, bytes });
    this.bytes += bytes;
    for (const [oldest] of this.entries) {
      if (this.bytes <= this.budget) break;
      this.drop(oldest);
    }
  }

  /** Forgets everything, and every read under way: what follows may have changed unheard (cache-coherence.ts). */
  reset(): void {
    this.generation += 1;
    this.entries.clear();
    this.newest.clear();
    this.bytes = 0;
  }

  /** Forgets `workspace` and its entries: it was removed from the database. */
  forget(workspace: string): void {
    if (!this.newest.delete(workspace)) return;
    for (const id of this.entries.keys()) if (id.startsWith(`${workspace}\n`)) this.drop(id);
  }

  private drop(id: string): void {
    const entry = this.entries.get(id);
    if (!entry) return;
    this.entries.delete(id);
    this.bytes -= entry.bytes;
  }

  /** Forgets the workspace seen longest ago, and its entries. */
  private forgetOldest(): void {
    const [workspace] = this.newest.keys();
    if (workspace !== undefined) this.forget(workspace);
  }
}
