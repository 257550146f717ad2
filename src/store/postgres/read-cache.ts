/** A cached answer: the workspace version it was read at, and its size. */
interface Entry {
  workspace: string;
  key: string;
  version: number;
  value: unknown;
  bytes: number;
  /** Read since it was last passed over for eviction: it gets a second chance. */
  used: boolean;
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
 * change instead, and asks nothing before a request (cache-coherence.ts). Bounded in bytes; entries not read for longest
 * go first.
 */
export class ReadCache {
  /** Entries by workspace, then by key: a hit builds no string. */
  private readonly spaces = new Map<string, Map<string, Entry>>();
  /**
   * Every entry, oldest kept first. A hit only marks its entry used; eviction
   * moves a used entry to the end once and takes the first unused one (second
   * chance), so the order is nearly least recently used at a fraction of the
   * cost of moving each hit.
   */
  private readonly order = new Set<Entry>();
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
    const entry = this.spaces.get(workspace)?.get(key);
    if (!entry || entry.version !== this.newest.get(workspace)) return undefined;
    entry.used = true;
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
    const old = this.spaces.get(workspace)?.get(key);
    if (old) this.drop(old);
    let space = this.spaces.get(workspace);
    if (!space) this.spaces.set(workspace, (space = new Map()));
    const entry: Entry = { workspace, key, version, value, bytes, used: false };
    space.set(key, entry);
    this.order.add(entry);
    this.bytes += bytes;
    for (const oldest of this.order) {
      if (this.bytes <= this.budget) break;
      if (oldest.used) {
        // Its second chance: to the end, unmarked (the loop meets it again only after every other entry).
        oldest.used = false;
        this.order.delete(oldest);
        this.order.add(oldest);
      } else this.drop(oldest);
    }
  }

  /** Forgets everything, and every read under way: what follows may have changed unheard (cache-coherence.ts). */
  reset(): void {
    this.generation += 1;
    this.spaces.clear();
    this.order.clear();
    this.newest.clear();
    this.bytes = 0;
  }

  /** Forgets `workspace` and its entries: it was removed from the database. */
  forget(workspace: string): void {
    if (!this.newest.delete(workspace)) return;
    for (const entry of this.spaces.get(workspace)?.values() ?? []) this.drop(entry);
  }

  private drop(entry: Entry): void {
    const space = this.spaces.get(entry.workspace);
    if (space?.get(entry.key) !== entry) return;
    space.delete(entry.key);
    if (space.size === 0) this.spaces.delete(entry.workspace);
    this.order.delete(entry);
    this.bytes -= entry.bytes;
  }

  /** Forgets the workspace seen longest ago, and its entries. */
  private forgetOldest(): void {
    const [workspace] = this.newest.keys();
    if (workspace !== undefined) this.forget(workspace);
  }
}
