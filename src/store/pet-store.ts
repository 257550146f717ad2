import { open, readFile, stat, type FileHandle } from 'node:fs/promises';
import { Low } from 'lowdb';
import { DurableJsonFile } from './durable-file.js';
import { generatePets } from './seed.js';
import { StoreError, type NewPet, type Pet, type PetStatus, type StoreData } from './types.js';

export interface PetStoreOptions {
  /** The lowdb snapshot file; its write-ahead log lives beside it as `<file>.log`. */
  file: string;
  /** Seeds a store whose file does not exist yet. */
  seed: { seed: number; count: number };
  /** Validates each stored pet on open (the spec's Pet schema); returns problems. */
  checkPet?: (pet: unknown) => string[];
  /** Log records after which the snapshot is rewritten and the log emptied. */
  compactAfter?: number;
}

interface Deferred {
  resolve: () => void;
  reject: (error: unknown) => void;
}

/** A page of pets as `list` gives it, and its JSON text. Neither may be changed. */
export interface Page {
  pets: Pet[];
  json: string;
}

/** Pages kept per store: every status and a few limits; a client walking all 100 limits only clears it. */
const MAX_PAGES = 64;

/**
 * One workspace's pets. Reads are served from memory: a list costs O(limit)
 * whatever the store's size (an index by status), a get O(log n) (a binary
 * search of the pets, which are kept ordered by id; a Map by id cost several
 * MB per 100,000 pets and, through V8's heap growth, several times that in
 * peak memory).
 *
 * Writes use group commit: every mutation is applied in memory at once and
 * its promise resolves only after the batch it joined is on disk. A batch of
 * creates is appended to a write-ahead log (one write and one fsync for the
 * whole batch); the lowdb snapshot is rewritten only on replace/reset and
 * when the log grows past `compactAfter`. So a POST costs the same with 100
 * or 100,000 pets stored.
 */
export class PetStore {
  readonly file: string;
  readonly logFile: string;
  private readonly db: Low<StoreData>;
  private readonly compactAfter: number;
  private byStatus = new Map<PetStatus, Pet[]>();
  /** Pages of `list` with their JSON text, by status and limit, until the next write. */
  private pages = new Map<string, Page>();
  private log: FileHandle | undefined;
  private logRecords = 0;
  private pendingLines: string[] = [];
  private pendingSnapshot = false;
  private waiters: Deferred[] = [];
  private flushing: Promise<void> | undefined;
  private closed = false;

  private constructor(db: Low<StoreData>, file: string, compactAfter: number) {
    this.db = db;
    this.file = file;
    this.logFile = `${file}.log`;
    this.compactAfter = compactAfter;
  }

  /** Opens (or, when the file does not exist, creates and seeds) a store. */
  static async open(options: PetStoreOptions): Promise<PetStore> {
    const db = new Low<StoreData>(new DurableJsonFile(options.file), { format: 1, epoch: 0, nextId: 1, pets: [] });
    const fresh = !(await exists(options.file));
    await db.read();
    const store = new PetStore(db, options.file, options.compactAfter ?? 20_000);
    if (fresh) {
      db.data.pets = generatePets(options.seed.seed, options.seed.count);
      db.data.nextId = options.seed.count + 1;
      await db.write();
    } else {
      store.checkRecords(options.checkPet);
      await store.replayLog();
    }
    store.reindex();
    // Fold a replayed log into the snapshot in the background: start-up does not wait for it.
    if (store.logRecords > 0) void store.schedule(undefined, true).catch(() => undefined);
    return store;
  }

  get size(): number {
    return this.db.data.pets.length;
  }

  get nextId(): number {
    return this.db.data.nextId;
  }

  get epoch(): number {
    return this.db.data.epoch;
  }

  /** All pets, by id ascending. The caller must not mutate them. */
  all(): readonly Pet[] {
    return this.db.data.pets;
  }

  /** The first `limit` pets by id ascending, optionally only those with `status`. */
  list(limit: number, status?: PetStatus): Pet[] {
    const source = status ? (this.byStatus.get(status) ?? []) : this.db.data.pets;
    return source.slice(0, limit);
  }

  /**
   * `list` with its JSON text. A page is kept until the next write changes
   * the store, so repeated reads of the same page (the usual traffic of a
   * sandbox) serialize nothing. At most MAX_PAGES are kept.
   */
  page(limit: number, status?: PetStatus): Page {
    const key = `${status ?? ''}:${limit}`;
    let page = this.pages.get(key);
    if (!page) {
      const pets = this.list(limit, status);
      page = { pets, json: JSON.stringify(pets) };
      if (this.pages.size >= MAX_PAGES) this.pages.clear();
      this.pages.set(key, page);
    }
    return page;
  }

  get(id: number): Pet | undefined {
    const pets = this.db.data.pets;
    let lo = 0;
    let hi = pets.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const pet = pets[mid] as Pet;
      if (pet.id === id) return pet;
      if (pet.id < id) lo = mid + 1;
      else hi = mid - 1;
    }
    return undefined;
  }

  /** Adds a pet with the next id; resolves once it is durably written. */
  create(input: NewPet): Promise<Pet> {
    this.assertOpen();
    const data = this.db.data;
    const pet: Pet = { id: data.nextId, name: input.name, categoryId: input.categoryId };
    if (input.status !== undefined) pet.status = input.status;
    data.nextId += 1;
    data.pets.push(pet);
    this.index(pet);
    this.pages.clear();
    return this.schedule(`${JSON.stringify({ e: data.epoch, pet })}\n`).then(() => pet);
  }

  /**
   * Replaces every pet (reset, fixture load). `pets` must already be
   * validated; ids must be unique. `nextId` defaults to one past the highest id.
   */
  replace(pets: Pet[], nextId?: number): Promise<void> {
    this.assertOpen();
    const sorted = [...pets].sort((a, b) => a.id - b.id);
    const data = this.db.data;
    const maxId = sorted.at(-1)?.id ?? 0;
    data.pets = sorted;
    data.nextId = Math.max(nextId ?? 0, maxId + 1);
    data.epoch += 1;
    this.reindex();
    this.pages.clear();
    return this.schedule(undefined, true);
  }

  /** Resolves when everything accepted so far is on disk. */
  async flush(): Promise<void> {
    while (this.flushing) await this.flushing;
  }

  /** Flushes pending writes, folds the log into the lowdb file and releases it. */
  async close(): Promise<void> {
    if (this.closed) return;
    if (this.logRecords > 0) await this.schedule(undefined, true);
    await this.flush();
    this.closed = true;
    await this.log?.close();
    this.log = undefined;
  }

  private assertOpen(): void {
    if (this.closed) throw new StoreError(`The store ${this.file} is closed`);
  }

  private schedule(line: string | undefined, snapshot = false): Promise<void> {
    if (line) this.pendingLines.push(line);
    if (snapshot) this.pendingSnapshot = true;
    const done = new Promise<void>((resolve, reject) => this.waiters.push({ resolve, reject }));
    this.flushing ??= this.drain();
    return done;
  }

  /** The flusher: one batch at a time, each batch one disk write. */
  private async drain(): Promise<void> {
    try {
      await this.drainBatches();
    } finally {
      this.flushing = undefined;
      // A waiter's continuation may have scheduled a write while this drain was finishing: it must not be left behind.
      if (this.waiters.length > 0) this.flushing = this.drain();
    }
  }

  private async drainBatches(): Promise<void> {
    while (this.waiters.length > 0) {
      const waiters = this.waiters;
      const lines = this.pendingLines;
      const snapshot = this.pendingSnapshot || this.logRecords + lines.length > this.compactAfter;
      this.waiters = [];
      this.pendingLines = [];
      this.pendingSnapshot = false;
      try {
        if (snapshot) await this.writeSnapshot();
        else await this.appendLog(lines);
        for (const w of waiters) w.resolve();
      } catch (error) {
        for (const w of waiters) w.reject(error);
      }
    }
  }

  private async appendLog(lines: string[]): Promise<void> {
    if (lines.length === 0) return;
    this.log ??= await open(this.logFile, 'a');
    await this.log.write(lines.join(''));
    await this.log.datasync();
    this.logRecords += lines.length;
  }

  /** Snapshot first, then empty the log: a crash in between leaves records the snapshot already holds, which replay skips. */
  private async writeSnapshot(): Promise<void> {
    await this.db.write();
    this.log ??= await open(this.logFile, 'a');
    await this.log.truncate(0);
    await this.log.datasync();
    this.logRecords = 0;
  }

  private async replayLog(): Promise<void> {
    let text: string;
    try {
      text = await readFile(this.logFile, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw new StoreError(`Cannot read write-ahead log ${this.logFile}: ${(error as Error).message}`);
    }
    const data = this.db.data;
    const lines = text.split('\n');
    for (const [i, line] of lines.entries()) {
      if (line === '') continue;
      let record: { e?: number; pet?: Pet };
      try {
        record = JSON.parse(line) as typeof record;
      } catch {
        // Only the last line can be torn by a crash: its write was never acknowledged.
        if (i === lines.length - 1) break;
        throw new StoreError(`Write-ahead log ${this.logFile} is corrupt at line ${i + 1}. It was left untouched.`);
      }
      const pet = record.pet;
      this.logRecords += 1;
      if (record.e !== data.epoch || !pet || pet.id < data.nextId) continue;
      data.pets.push(pet);
      data.nextId = pet.id + 1;
    }
  }

  private checkRecords(checkPet: PetStoreOptions['checkPet']): void {
    const seen = new Set<number>();
    let sorted = true;
    for (const [i, pet] of this.db.data.pets.entries()) {
      const problems = checkPet?.(pet) ?? [];
      if (problems.length > 0) throw new StoreError(`Data file ${this.file}: pet at index ${i} is invalid: ${problems.join(' ')}`);
      if (seen.has(pet.id)) throw new StoreError(`Data file ${this.file}: duplicate pet id ${pet.id} at index ${i}`);
      if (i > 0 && pet.id < (this.db.data.pets[i - 1]?.id ?? 0)) sorted = false;
      seen.add(pet.id);
    }
    if (!sorted) this.db.data.pets.sort((a, b) => a.id - b.id);
  }

  private reindex(): void {
    this.byStatus = new Map();
    for (const pet of this.db.data.pets) this.index(pet);
  }

  private index(pet: Pet): void {
    if (!pet.status) return;
    const list = this.byStatus.get(pet.status);
    if (list) list.push(pet);
    else this.byStatus.set(pet.status, [pet]);
  }
}

async function exists(file: string): Promise<boolean> {
  return stat(file).then(
    () => true,
    () => false,
  );
}
