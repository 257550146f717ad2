import { readdir, stat } from 'node:fs/promises';
import { basename, dirname, extname, join } from 'node:path';
import { removeDurably } from './durable-entries.js';
import { OpenKeyUse, type OpenKeyPolicy, type RemovalReason } from '../open-key-policy.js';

/**
 * Takes a workspace out of service so it can be removed: false while a
 * request uses it (it stays), else its store to close, if it is open.
 */
export type Detach = (key: string | undefined) => { close(options: { fold: boolean }): Promise<void> } | undefined | false;

interface Kept {
  lastUsed: number;
  /** The key, once a request of this process used it: how its open store is found. */
  key?: string;
  /** Files of it found at start besides the usual ones (a discarded log tail). */
  found?: string[];
}

/** Workspace file names beside `db.json`: `db.<id>.json`, its log, a discarded tail, a temp file. */
const fileName = (base: string, ext: string) => new RegExp(`^\\.?${escape(base)}\\.([0-9a-f]{16})${escape(ext)}(\\.log(\\.discarded-.*)?|\\.tmp)?$`);
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The workspaces of keys that are not configured (`--open-keys`), as kept on
 * disk: by id, least recently used first, found at start from the data
 * folder's file names and their times. Beyond the cap or past the TTL
 * (`OpenKeyUse`, the rule the memory store shares), the least recently used
 * one that no request holds is removed with its files:
 * snapshot, commit log, set-aside tails, checkpoints. Its key, if it comes
 * back, gets a fresh seeded workspace as a new key would.
 */
export class OpenKeyWorkspaces {
  private readonly kept = new OpenKeyUse<Kept>();
  private readonly removals = new Map<string, Promise<void>>();
  private count = 0;

  private constructor(
    private readonly dataFile: string,
    readonly policy: OpenKeyPolicy,
  ) {}

  /**
   * The workspaces found beside `dataFile` whose ids are not in `configured`:
   * by their files, and by their items' folders (one used only through a
   * spec's items has no other file).
   */
  static async scan(dataFile: string, policy: OpenKeyPolicy, configured: ReadonlySet<string>): Promise<OpenKeyWorkspaces> {
    const kept = new OpenKeyWorkspaces(dataFile, policy);
    const ext = extname(dataFile) || '.json';
    const base = basename(dataFile, extname(dataFile));
    const pattern = fileName(base, ext);
    const found = new Map<string, Kept>();
    const note = async (id: string | undefined, path: string, name?: string) => {
      if (id === undefined || configured.has(id)) return;
      const time = await stat(path).then(
        (s) => s.mtimeMs,
        () => 0,
      );
      const item = found.get(id) ?? { lastUsed: 0, found: [] };
      item.lastUsed = Math.max(item.lastUsed, time);
      if (name !== undefined) item.found?.push(name);
      found.set(id, item);
    };
    for (const name of await readdir(dirname(dataFile)).catch(() => [] as string[])) await note(pattern.exec(name)?.[1], join(dirname(dataFile), name), name);
    const items = join(dirname(dataFile), `${base}.items`);
    for (const id of await readdir(items).catch(() => [] as string[])) if (/^[0-9a-f]{16}$/.test(id)) await note(id, join(items, id));
    for (const [id, item] of [...found].sort((a, b) => a[1].lastUsed - b[1].lastUsed)) kept.kept.use(id, item);
    return kept;
  }

  /** Workspaces kept now. */
  get size(): number {
    return this.kept.size;
  }

  /** Workspaces removed since start. */
  get removed(): number {
    return this.count;
  }

  /** A use of a workspace: it becomes the most recently used (and is kept from now on, if new). */
  touch(id: string, key: string, now = Date.now()): void {
    this.kept.use(id, { ...this.kept.get(id), lastUsed: now, key });
  }

  /** A workspace just opened: kept as the most recently used, then the others trimmed to the cap. */
  async keep(id: string, key: string, detach: Detach): Promise<void> {
    this.touch(id, key);
    await this.trim(detach);
  }

  /** Resolves once a removal of `id` under way is done, so its files are not opened while they go. */
  settled(id: string): Promise<void> {
    return this.removals.get(id) ?? Promise.resolve();
  }

  /**
   * Removes, least recently used first, those unused past the TTL and those
   * beyond the cap (less `room`, kept for workspaces about to be created),
   * skipping any in use.
   */
  async trim(detach: Detach, room = 0, now = Date.now()): Promise<void> {
    for (const [id, item, reason] of this.kept.due(this.policy, now, room)) {
      const store = detach(item.key);
      if (store === false) continue;
      this.kept.delete(id);
      const removal = this.remove(id, item, store, reason);
      this.removals.set(id, removal);
      await removal;
    }
  }

  /** Resolves once every removal under way is done. */
  async close(): Promise<void> {
    await Promise.all(this.removals.values());
  }

  private async remove(id: string, item: Kept, store: ReturnType<Detach>, reason: RemovalReason): Promise<void> {
    try {
      if (store) await store.close({ fold: false });
      await removeDurably(this.filesOf(id, item.found ?? []));
      this.count += 1;
      this.policy.onRemoved?.(id, reason);
    } catch (error) {
      this.policy.warn?.(`Could not remove the workspace ${id} of an open key: ${(error as Error).message}. Its files stay; the next start tries again.`);
    } finally {
      this.removals.delete(id);
    }
  }

  /**
   * Everything kept of a workspace: its checkpoints' and items' folders, its files beside
   * the data file, the snapshot last: a crash part way leaves the snapshot,
   * so the next start finds the workspace and removes the rest.
   */
  private filesOf(id: string, found: readonly string[]): string[] {
    const dir = dirname(this.dataFile);
    const ext = extname(this.dataFile);
    const base = basename(this.dataFile, ext);
    const file = `${base}.${id}${ext || '.json'}`;
    const others = new Set([`${file}.log`, `.${file}.tmp`, ...found]);
    others.delete(file);
    return [join(dir, `${base}.checkpoints`, id), join(dir, `${base}.items`, id), ...[...others, file].map((name) => join(dir, name))];
  }
}
