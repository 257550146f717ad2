import type { Summary, WorkspaceData } from '../backend.js';
import { nextGeneration, type Generation } from '../load-rules.js';
import type { MemoryWorkspace } from '../memory/workspace.js';
import type { Page, PetText } from '../pet-index.js';
import type { NewPet, Pet, PetStatus } from '../types.js';
import { petRange, requested, transact, type IdbDatabase, type IdbTransaction } from './idb.js';

/** A workspace's line in `meta`: the version of its stored pets (one more with each write) and its next id. */
interface Meta {
  version: number;
  nextId: number;
}

const metaKey = (id: string) => `workspace:${id}`;

/**
 * One workspace kept in memory and in IndexedDB: reads answered from the
 * memory copy, each write stored first, in one transaction, and applied to
 * the copy only once that transaction is complete. So a 201 means stored,
 * and a write that failed left nothing anywhere.
 *
 * Several tabs of one origin share the database. Each write's transaction
 * first reads the workspace's stored version: when another tab wrote since
 * this copy was read, the copy is read again in the same transaction, and
 * the write made on top of it; transactions over the same stores run one at
 * a time, so no write overwrites another (ids never clash). `announce` tells
 * the other tabs; a copy told of a newer version is `stale` and read again
 * before its next use.
 */
export class PersistedWorkspace implements WorkspaceData {
  /** The stored version this copy holds; undefined while nothing is stored (the seeded pets). */
  private version: number | undefined;
  /** True until the copy was read from storage, and again once another tab wrote. */
  stale = true;
  /** This tab's writes, one at a time: a write is prepared on the copy the previous one left. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    readonly memory: MemoryWorkspace,
    private readonly db: IdbDatabase,
    private readonly id: string,
    private readonly announce: (id: string, version: number) => void,
  ) {}

  page(limit: number, status?: PetStatus): Page {
    return this.memory.page(limit, status);
  }

  get(id: number): Pet | undefined {
    return this.memory.get(id);
  }

  getText(id: number): PetText | undefined {
    return this.memory.getText(id);
  }

  summary(): Summary {
    return this.memory.summary();
  }

  exportPieces(): Iterable<string> {
    return this.memory.exportPieces();
  }

  /** Told by another tab that it stored `version`. */
  heard(version: number): void {
    if (version !== this.version) this.stale = true;
  }

  /** The copy brought up to what is stored, if it may be behind. */
  async refresh(): Promise<void> {
    if (this.stale) await this.serial(() => this.write('Could not read the stored pets'));
  }

  createText(input: NewPet): Promise<PetText> {
    return this.serial(async () => {
      const stored = await this.write('Could not store the pet', (tx, version) => {
        const { text, nextId, commit } = this.memory.prepareCreate(input);
        tx.objectStore('pets').put(text.pet, [this.id, text.pet.id]);
        putMeta(tx, this.id, { version, nextId });
        return () => {
          commit();
          return text;
        };
      });
      return stored as PetText;
    });
  }

  async replace(pets: readonly Pet[], nextId?: number): Promise<void> {
    await this.serial(() => this.write('Could not store the pets', (tx, version) => this.storeGeneration(tx, version, this.memory.replacement(pets, nextId))));
  }

  async append(pets: readonly Pet[], nextId?: number): Promise<void> {
    await this.serial(() => this.write('Could not store the pets', (tx, version) => this.storeGeneration(tx, version, this.memory.appended(pets, nextId))));
  }

  /** Writes `generation` as the workspace's whole content; applied to the copy once stored. */
  private storeGeneration(tx: IdbTransaction, version: number, generation: Generation): () => void {
    putPets(tx, this.id, generation.pets);
    putMeta(tx, this.id, { version, nextId: generation.nextId });
    return () => this.memory.adopt(generation);
  }

  /**
   * One transaction: the copy caught up with what is stored (read again
   * when another tab wrote since), then `change`, given the version its
   * write stores, on top of it (the seeded pets stored first when nothing
   * is yet). What `change` returns is applied once the transaction is
   * complete. Without a `change`, the copy only catches up.
   */
  private async write<T>(action: string, change?: (tx: IdbTransaction, version: number) => () => T): Promise<T | undefined> {
    this.stale = false;
    let version: number | undefined;
    const apply = await transact(this.db, action, async (tx) => {
      const meta = (await requested(tx.objectStore('meta').get(metaKey(this.id)), action)) as Meta | undefined;
      if (meta !== undefined && meta.version !== this.version) {
        const pets = (await requested(tx.objectStore('pets').getAll(petRange(this.id)), action)) as Pet[];
        // Stored by this store's rules already: read back, not checked against this tab's quota.
        this.memory.adopt(nextGeneration(pets, meta.nextId, undefined));
      }
      version = meta?.version;
      if (!change) return undefined;
      if (meta === undefined) putPets(tx, this.id, this.memory.pets());
      version = (meta?.version ?? 0) + 1;
      return change(tx, version);
    }).catch((error: unknown) => {
      // What is stored may be ahead of this copy now: read it again before the next use.
      this.stale = true;
      throw error;
    });
    this.version = version;
    if (change && version !== undefined) this.announce(this.id, version);
    return apply?.();
  }

  private serial<T>(work: () => Promise<T>): Promise<T> {
    const next = this.queue.then(work, work);
    this.queue = next.catch(() => undefined);
    return next;
  }
}

function putMeta(tx: IdbTransaction, id: string, meta: Meta): void {
  tx.objectStore('meta').put(meta, metaKey(id));
}

/** The workspace's pets in storage made exactly `pets`. */
function putPets(tx: IdbTransaction, id: string, pets: readonly Pet[]): void {
  const store = tx.objectStore('pets');
  store.delete(petRange(id));
  for (const pet of pets) store.put(pet, [id, pet.id]);
}
