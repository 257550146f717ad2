import { basename, dirname, extname, join } from 'node:path';
import { StoreError } from '../../kernel/store-errors.js';
import type { PetStore, PetStoreOptions } from './pet-store.js';
import { openStore } from './open-store.js';
import { WriteTimes, type WriteListener } from '../write-times.js';
import type { OpenKeyPolicy } from '../open-key-policy.js';
import { OpenKeyWorkspaces } from './open-key-workspaces.js';
import { WorkspaceIds } from './workspace-ids.js';
import { tooManyWorkspaces } from '../workspace-users.js';
import { storeClosing } from '../uses-in-flight.js';
import type { WorkspaceStore } from '../backend.js';

export interface WorkspacesOptions {
  /** The default key's data file; other keys' files live beside it. */
  dataFile: string;
  /** The first configured key: its workspace is the data file itself, and is never closed while serving. */
  defaultKey: string;
  store: Omit<PetStoreOptions, 'file' | 'writes'>;
  /** Most workspaces open at once. Default 1000. */
  maxOpen?: number;
  /** An unused workspace is closed after this long. Default 60 s. */
  idleMs?: number;
  /** With open keys: the policy for workspaces of keys not in `configured`, which alone are ever removed. */
  openKeys?: OpenKeyPolicy & { configured: readonly string[] };
}

interface Entry {
  /** The workspace id, and whether its key is an open key's (not configured). */
  id: string;
  openKey: boolean;
  opening: Promise<PetStore>;
  store?: PetStore;
  /** Requests using it now: it is not closed under them. */
  users: number;
  lastUsed: number;
}

/**
 * Where each API key's pets live: one lowdb file per key, beside the
 * configured data file. The default key uses the data file itself; every
 * other key `<name>.<workspace id><ext>`, named by a keyed hash of the key.
 * A workspace opens (and, the first time, is seeded) on its first use, is
 * closed when idle or when the cap of open workspaces needs its place, and
 * opens again on demand.
 */
export class Workspaces implements WorkspaceStore {
  private readonly entries = new Map<string, Entry>();
  private readonly maxOpen: number;
  private readonly idleMs: number;
  private readonly sweeper: NodeJS.Timeout;
  /** Ids of the configured keys' workspaces (and their older names): never removed. */
  private readonly configured: ReadonlySet<string>;
  /** Where every store tells of its writes (`listen`). */
  private readonly writes = new WriteTimes();
  /** Set by `close`: a use then is refused, never served by a store opened again. */
  private closed = false;
  /** Takes an idle workspace out of service for removal (see OpenKeyWorkspaces). */
  private readonly detach = (key: string | undefined) => this.detachEntry(key);

  private constructor(
    private readonly options: WorkspacesOptions,
    readonly ids: WorkspaceIds,
    private readonly kept?: OpenKeyWorkspaces,
  ) {
    this.maxOpen = options.maxOpen ?? 1000;
    this.idleMs = options.idleMs ?? 60_000;
    this.configured = ids.ofKeys([options.defaultKey, ...(options.openKeys?.configured ?? [])]);
    const period = Math.min(this.idleMs, kept?.policy.ttlMs ?? Infinity, 30_000) / 2;
    this.sweeper = setInterval(() => void this.closeIdle(), period).unref();
  }

  static async open(options: WorkspacesOptions): Promise<Workspaces> {
    const ids = await WorkspaceIds.load(options.dataFile).catch((error: unknown) => {
      throw new StoreError(`Cannot read the workspace secret: ${(error as Error).message}`);
    });
    const policy = options.openKeys;
    const configured = ids.ofKeys([options.defaultKey, ...(policy?.configured ?? [])]);
    const kept = policy && (await OpenKeyWorkspaces.scan(options.dataFile, policy, configured));
    const workspaces = new Workspaces(options, ids, kept);
    // Those left beyond the cap or past the TTL by an earlier run go now.
    await kept?.trim(workspaces.detach);
    return workspaces;
  }

  /** Workspaces of open keys removed since start (beyond the cap or past the TTL). */
  removedCount(): number {
    return this.kept?.removed ?? 0;
  }

  /** A use of `key`'s items (an API served by convention): an open key's workspace counts as used, and the others are trimmed. */
  usedByItems(key: string): void {
    const id = this.idOf(key);
    if (this.kept && !this.configured.has(id)) void this.kept.keep(id, key, this.detach).catch(() => undefined);
  }

  listen(listener: WriteListener): void {
    this.writes.listen(listener);
  }

  /** Workspaces open (or opening) now. */
  openCount(): number {
    return this.entries.size;
  }

  get dataFile(): string {
    return this.options.dataFile;
  }

  /** The workspace id of a key (journal, faults, control plane, file names). */
  idOf(key: string): string {
    return this.ids.of(key);
  }

  /** The file of a key's workspace. */
  fileFor(key: string): string {
    const { dataFile, defaultKey } = this.options;
    if (key === defaultKey) return dataFile;
    const ext = extname(dataFile);
    return join(dirname(dataFile), `${basename(dataFile, ext)}.${this.idOf(key)}${ext || '.json'}`);
  }

  /** Runs `work` on a key's workspace, opening it if needed; it stays open until `work` settles. Refused (503) once closed. */
  use<T>(key: string, work: (store: PetStore) => T | Promise<T>): Promise<T> {
    if (this.closed) return Promise.reject(storeClosing());
    const entry = this.entries.get(key) ?? this.startOpening(key);
    entry.users += 1;
    let result: Promise<T>;
    try {
      result = entry.store ? Promise.resolve(work(entry.store)) : entry.opening.then(work);
    } catch (error) {
      this.leave(key, entry);
      return Promise.reject(error as Error);
    }
    // Chained, not awaited: one promise more per use, where an async function costs two.
    return result.then(
      (value) => {
        this.leave(key, entry);
        return value;
      },
      (error: unknown) => {
        this.leave(key, entry);
        throw error;
      },
    );
  }

  /** A key's store if it is open now, for synchronous work only: nothing can close it before that work returns (no `use`). */
  peek(key: string): PetStore | undefined {
    const entry = this.entries.get(key);
    if (entry?.store) {
      entry.lastUsed = Date.now();
      if (entry.openKey) this.kept?.touch(entry.id, key, entry.lastUsed);
    }
    return entry?.store;
  }

  /** Ids of the workspaces open now. */
  openIds(): string[] {
    return [...this.entries.keys()].map((key) => this.idOf(key));
  }

  /** Refuses new uses, then flushes (the writes under way land) and closes every open store. */
  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.sweeper);
    await this.kept?.close();
    const entries = [...this.entries.values()];
    this.entries.clear();
    const stores = await Promise.allSettled(entries.map((e) => e.opening));
    await Promise.all(stores.map((s) => (s.status === 'fulfilled' ? s.value.close() : undefined)));
  }

  private startOpening(key: string): Entry {
    const id = this.idOf(key);
    const openKey = this.kept !== undefined && !this.configured.has(id);
    const entry: Entry = { id, openKey, opening: Promise.resolve(undefined as unknown as PetStore), users: 0, lastUsed: Date.now() };
    entry.opening = this.openStore(key, entry).then((store) => (entry.store = store));
    this.entries.set(key, entry);
    // A workspace that failed to open is tried again on the next request.
    entry.opening.catch(() => this.entries.get(key) === entry && this.entries.delete(key));
    return entry;
  }

  private async openStore(key: string, entry: Entry): Promise<PetStore> {
    // Checked before anything waits, so that workspaces opening together each make room in turn.
    if (this.entries.size >= this.maxOpen && !(await this.closeOne())) throw tooManyWorkspaces(this.maxOpen);
    if (entry.openKey && this.kept) {
      // Its files may be going (removed while idle): they are not read before they are gone. Room is made before it is created.
      await this.kept.settled(entry.id);
      await this.kept.trim(this.detach, 1);
    }
    // For any key but the default, the secret its file's name depends on is on disk first.
    const secret = key === this.options.defaultKey ? undefined : this.ids;
    const store = await openStore({ ...this.options.store, file: this.fileFor(key), writes: this.writes }, () => this.closeOne(), secret);
    // Kept once open, then trimmed for others kept meanwhile (this one, still opening, cannot be removed).
    if (entry.openKey) await this.kept?.keep(entry.id, key, this.detach);
    return store;
  }

  /** Closes the least recently used workspace that nobody uses; false if there is none. */
  private async closeOne(): Promise<boolean> {
    let oldest: [string, Entry] | undefined;
    for (const item of this.entries) {
      if (this.closable(item[0], item[1]) && (!oldest || item[1].lastUsed < oldest[1].lastUsed)) oldest = item;
    }
    if (!oldest) return false;
    await this.closeEntry(...oldest);
    return true;
  }

  /**
   * Removes open keys' workspaces beyond the cap or past the TTL; closes
   * workspaces unused for `idleMs`; of those that stay open (the default one,
   * those in use), the log's descriptor if nothing was written for as long.
   */
  private async closeIdle(): Promise<void> {
    await this.kept?.trim(this.detach).catch(() => undefined);
    const before = Date.now() - this.idleMs;
    for (const [key, entry] of [...this.entries]) {
      if (entry.lastUsed < before && this.closable(key, entry)) await this.closeEntry(key, entry).catch(() => undefined);
      else await entry.store?.releaseLog(before).catch(() => undefined);
    }
  }

  /** An idle workspace out of service, for removal: its store to close (undefined if it is not open), or false while in use. */
  private detachEntry(key: string | undefined): PetStore | undefined | false {
    const entry = key === undefined ? undefined : this.entries.get(key);
    if (key === undefined || !entry) return undefined;
    if (!this.closable(key, entry)) return false;
    this.entries.delete(key);
    return entry.store;
  }

  /** A use of `entry` is over. */
  private leave(key: string, entry: Entry): void {
    entry.users -= 1;
    entry.lastUsed = Date.now();
    // Only a workspace that opened is kept: one refused (503) or failed has no files to count.
    if (entry.openKey && entry.store) this.kept?.touch(entry.id, key, entry.lastUsed);
  }

  private closable(key: string, entry: Entry): boolean {
    return key !== this.options.defaultKey && entry.store !== undefined && entry.users === 0 && !entry.store.busy;
  }

  private async closeEntry(key: string, entry: Entry): Promise<void> {
    this.entries.delete(key);
    await entry.store?.close({ fold: false });
  }
}
