import { createHash } from 'node:crypto';
import { basename, dirname, extname, join } from 'node:path';
import { PetStore, type PetStoreOptions } from './pet-store.js';

// Every /v1 request asks for its workspace id (journal, faults): hash each key once. Bounded,
// because with --open-keys any well-formed token is a key.
const ids = new Map<string, string>();

/** A short, stable id of an API key: names its file and its journal; never reveals the key. */
export function workspaceId(key: string): string {
  let id = ids.get(key);
  if (id === undefined) {
    if (ids.size >= 1024) ids.clear();
    ids.set(key, (id = createHash('sha256').update(key).digest('hex').slice(0, 16)));
  }
  return id;
}

/**
 * Where each API key's pets live: one lowdb file per key, beside the
 * configured data file. The default key (the first configured one) uses the
 * data file itself; every other key `<name>.<workspace id><ext>`, named from
 * a hash of the key, never the key itself. A workspace is opened (and, the
 * first time, seeded) on its first use.
 */
export class Workspaces {
  private readonly open = new Map<string, Promise<PetStore>>();

  constructor(
    readonly dataFile: string,
    readonly defaultKey: string,
    private readonly storeOptions: Omit<PetStoreOptions, 'file'>,
  ) {}

  /** The file of a key's workspace. */
  fileFor(key: string): string {
    if (key === this.defaultKey) return this.dataFile;
    const ext = extname(this.dataFile);
    return join(dirname(this.dataFile), `${basename(this.dataFile, ext)}.${workspaceId(key)}${ext || '.json'}`);
  }

  forKey(key: string): Promise<PetStore> {
    let store = this.open.get(key);
    if (!store) {
      store = PetStore.open({ ...this.storeOptions, file: this.fileFor(key) });
      this.open.set(key, store);
      // A workspace that failed to open is retried on the next request.
      store.catch(() => this.open.delete(key));
    }
    return store;
  }

  /** Ids of the workspaces opened since start. */
  openIds(): string[] {
    return [...this.open.keys()].map(workspaceId);
  }

  /** Flushes and closes every open store. */
  async close(): Promise<void> {
    const stores = await Promise.allSettled(this.open.values());
    this.open.clear();
    await Promise.all(stores.map((s) => (s.status === 'fulfilled' ? s.value.close() : undefined)));
  }
}
