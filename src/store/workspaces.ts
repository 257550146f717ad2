import { stat } from 'node:fs/promises';
import { basename, dirname, extname, join } from 'node:path';
import { renameFile } from './durable-entries.js';
import { StoreError, StoreFailure, errnoOf, storageFailure } from './errors.js';
import { PetStore, type PetStoreOptions } from './pet-store.js';
import { legacyWorkspaceId, WorkspaceIds } from './workspace-ids.js';
import type { WorkspaceStore } from '../backend.js';

export interface WorkspacesOptions {
  /** The default key's data file; other keys' files live beside it. */
  dataFile: string;
  /** The first configured key: its workspace is the data file itself, and is never closed while serving. */
  defaultKey: string;
  store: Omit<PetStoreOptions, 'file'>;
  /** Most workspaces open at once. Default 1000. */
  maxOpen?: number;
  /** An unused workspace is closed after this long. Default 60 s. */
  idleMs?: number;
}

interface Entry {
  opening: Promise<PetStore>;
  store?: PetStore;
  /** Requests using it now: it is not closed under them. */
  users: number;
  lastUsed: number;
}

/** How often opening a workspace is retried after closing an idle one, when descriptors ran out. */
const DESCRIPTOR_RETRIES = 3;

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

  private constructor(
    private readonly options: WorkspacesOptions,
    readonly ids: WorkspaceIds,
  ) {
    this.maxOpen = options.maxOpen ?? 1000;
    this.idleMs = options.idleMs ?? 60_000;
    this.sweeper = setInterval(() => void this.closeIdle(), Math.min(this.idleMs, 30_000) / 2).unref();
  }

  static async open(options: WorkspacesOptions): Promise<Workspaces> {
    const ids = await WorkspaceIds.load(options.dataFile).catch((error: unknown) => {
      throw new StoreError(`Cannot read the workspace secret: ${(error as Error).message}`);
    });
    return new Workspaces(options, ids);
  }

  get dataFile(): string {
    return this.options.dataFile;
  }

  get defaultKey(): string {
    return this.options.defaultKey;
  }

  /** The workspace id of a key (journal, faults, control plane, file names). */
  idOf(key: string): string {
    return this.ids.of(key);
  }

  /** The file of a key's workspace. */
  fileFor(key: string, id = this.idOf(key)): string {
    const { dataFile, defaultKey } = this.options;
    if (key === defaultKey) return dataFile;
    const ext = extname(dataFile);
    return join(dirname(dataFile), `${basename(dataFile, ext)}.${id}${ext || '.json'}`);
  }

  /** Runs `work` on a key's workspace, opening it if needed; it stays open until `work` settles. */
  async use<T>(key: string, work: (store: PetStore) => T | Promise<T>): Promise<T> {
    const entry = this.entries.get(key) ?? this.startOpening(key);
    entry.users += 1;
    try {
      return await work(entry.store ?? (await entry.opening));
    } finally {
      entry.users -= 1;
      entry.lastUsed = Date.now();
    }
  }

  /**
   * A key's store if it is open now, for synchronous work only: nothing can
   * close it before that work returns, so it needs no `use`.
   */
  peek(key: string): PetStore | undefined {
    const entry = this.entries.get(key);
    if (entry?.store) entry.lastUsed = Date.now();
    return entry?.store;
  }

  /** Ids of the workspaces open now. */
  openIds(): string[] {
    return [...this.entries.keys()].map((key) => this.idOf(key));
  }

  /** Flushes and closes every open store. */
  async close(): Promise<void> {
    clearInterval(this.sweeper);
    const entries = [...this.entries.values()];
    this.entries.clear();
    const stores = await Promise.allSettled(entries.map((e) => e.opening));
    await Promise.all(stores.map((s) => (s.status === 'fulfilled' ? s.value.close() : undefined)));
  }

  private startOpening(key: string): Entry {
    const entry: Entry = { opening: Promise.resolve(undefined as unknown as PetStore), users: 0, lastUsed: Date.now() };
    entry.opening = this.openStore(key).then((store) => (entry.store = store));
    this.entries.set(key, entry);
    // A workspace that failed to open is tried again on the next request.
    entry.opening.catch(() => this.entries.get(key) === entry && this.entries.delete(key));
    return entry;
  }

  private async openStore(key: string): Promise<PetStore> {
    if (this.entries.size >= this.maxOpen && !(await this.closeOne())) {
      throw new StoreFailure('service_unavailable', `Too many workspaces are in use at once (${this.maxOpen}, --max-workspaces). Try again shortly.`);
    }
    const file = await this.prepareFile(key);
    for (let attempt = 0; ; attempt++) {
      try {
        return await PetStore.open({ ...this.options.store, file });
      } catch (error) {
        const outOfDescriptors = errnoOf(error) === 'EMFILE' || errnoOf(error) === 'ENFILE' || /EMFILE|ENFILE/.test((error as Error).message);
        if (!outOfDescriptors || attempt >= DESCRIPTOR_RETRIES || !(await this.closeOne())) {
          throw outOfDescriptors ? storageFailure(error, 'Could not open the workspace') : error;
        }
      }
    }
  }

  /** A non-default workspace's file name; files of older versions (a bare hash of the key) are renamed once. */
  private async prepareFile(key: string): Promise<string> {
    const file = this.fileFor(key);
    if (key === this.options.defaultKey) return file;
    try {
      await this.ids.persist();
      const legacy = this.fileFor(key, legacyWorkspaceId(key));
      if (!(await exists(file)) && (await exists(legacy))) {
        // The log first: a crash in between leaves a log the data file then finds, not an orphan.
        if (await exists(`${legacy}.log`)) await renameFile(`${legacy}.log`, `${file}.log`);
        await renameFile(legacy, file);
      }
    } catch (error) {
      throw storageFailure(error, 'Could not open the workspace');
    }
    return file;
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

  /** Closes workspaces unused for `idleMs`; of those that stay open (the default one, those in use), the log's descriptor if nothing was written for as long. */
  private async closeIdle(): Promise<void> {
    const before = Date.now() - this.idleMs;
    for (const [key, entry] of [...this.entries]) {
      if (entry.lastUsed < before && this.closable(key, entry)) await this.closeEntry(key, entry).catch(() => undefined);
      else await entry.store?.releaseLog(before).catch(() => undefined);
    }
  }

  private closable(key: string, entry: Entry): boolean {
    return key !== this.options.defaultKey && entry.store !== undefined && entry.users === 0 && !entry.store.busy;
  }

  private async closeEntry(key: string, entry: Entry): Promise<void> {
    this.entries.delete(key);
    await entry.store?.close({ fold: false });
  }
}

async function exists(file: string): Promise<boolean> {
  return stat(file).then(
    () => true,
    (error: unknown) => {
      if (errnoOf(error) === 'ENOENT') return false;
      throw error;
    },
  );
}
