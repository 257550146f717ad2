import type { Low } from 'lowdb';
import { encodeBatch, WriteQueue, type CommitLog } from './commit-log.js';
import { Compactor } from './compactor.js';
import { StoreError, storageFailure } from '../../kernel/store-errors.js';
import { PetIndex, type Page, type PetText } from '../pet-index.js';
import { prepareCreate, takeIds, type PendingCreate, type Quota } from '../rules.js';
import { appendClash } from '../load-rules.js';
import { swapGeneration, type GenerationParts } from './generation.js';
import { recoverFiles, type RecoverOptions } from './recover.js';
import type { NewPet, Pet, PetStatus, StoreData } from '../types.js';
import type { Summary, WorkspaceData } from '../backend.js';
import { exportJson } from '../export-json.js';
import { WriteTimes } from '../write-times.js';

export type { Page } from '../pet-index.js';

export interface PetStoreOptions extends RecoverOptions {
  /** Log records after which the snapshot is rewritten and the log emptied (or as many as the snapshot holds pets, if more). */
  compactAfter?: number;
  /** Most pets and most bytes of pet JSON the store may hold. */
  quota?: Quota;
  /** Where the store tells of its writes, timed (the metrics listen there). */
  writes?: WriteTimes;
}

/** A create in the queue, and when it was asked (`performance.now()`): its write is timed from then. */
interface QueuedCreate extends PendingCreate {
  start: number;
}

/**
 * One workspace's pets: an in-memory index that reads are served from, a
 * lowdb snapshot file and a commit log beside it.
 *
 * A write is visible only once it is durable. Creates are group-committed:
 * those waiting together get their ids and go to the log in one append and
 * one fsync, then join the index, then resolve. A failed batch leaves no
 * trace: no id taken, nothing indexed, its bytes cut from the log. A reset
 * or load writes the new snapshot aside and swaps it in once renamed over
 * the old one; a failed one changes nothing. The snapshot is rewritten
 * (and the log emptied) on reset and load, when the log grows past
 * `compactAfter` records and past the pets of the snapshot, and on close.
 */
export class PetStore implements WorkspaceData {
  readonly logFile: string;
  private readonly index: PetIndex;
  private readonly queue: WriteQueue<QueuedCreate, PetText>;
  private readonly pending = { pets: 0, bytes: 0 };
  private readonly compactor: Compactor;
  private readonly writes: WriteTimes;
  private closed = false;

  private constructor(
    readonly file: string,
    private readonly db: Low<StoreData>,
    private readonly log: CommitLog,
    private readonly options: PetStoreOptions,
  ) {
    this.logFile = `${file}.log`;
    this.writes = options.writes ?? new WriteTimes();
    this.index = new PetIndex(db.data.pets);
    this.compactor = new Compactor(db, log, this.index, options);
    this.queue = new WriteQueue(
      (items) => this.commitCreates(items),
      (item) => item.json.length,
    );
  }

  /** Opens (or, when the file does not exist, creates and seeds) a store. */
  static async open(options: PetStoreOptions): Promise<PetStore> {
    const { db, log, replayed } = await recoverFiles(options);
    const store = new PetStore(options.file, db, log, options);
    store.compactor.records = replayed;
    // Fold a replayed log into the snapshot in the background: start-up does not wait for it.
    if (!log.empty) void store.queue.exclusive(() => store.compactor.compact()).catch(() => undefined);
    return store;
  }

  get size(): number {
    return this.index.size;
  }

  get nextId(): number {
    return this.db.data.nextId;
  }

  get epoch(): number {
    return this.db.data.epoch;
  }

  /** Bytes of pet JSON held (what `quota.bytes` limits). */
  get bytes(): number {
    return this.index.bytes;
  }

  /** Whether writes are waiting or running. */
  get busy(): boolean {
    return this.queue.busy;
  }

  /** All pets, by id ascending. The caller must not mutate them. */
  all(): readonly Pet[] {
    return this.index.all();
  }

  /** The first `limit` pets by id ascending, optionally only those with `status`. */
  list(limit: number, status?: PetStatus): Pet[] {
    return this.index.list(limit, status);
  }

  /** `list` with its JSON text, cached until the next write. */
  page(limit: number, status?: PetStatus): Page {
    return this.index.page(limit, status);
  }

  get(id: number): Pet | undefined {
    return this.index.get(id);
  }

  /** `get` with its JSON text, cached until the next reset or load. */
  getText(id: number): PetText | undefined {
    return this.index.text(id);
  }

  /**
   * Adds a pet with the next id, with its JSON text (the one its log record
   * holds); resolves once it is durably written, and only then can it be
   * read. Rejects with a StoreFailure when no id is left, a quota would be
   * exceeded, or storage fails.
   */
  createText(input: NewPet): Promise<PetText> {
    const start = performance.now();
    const held = { pets: this.index.size + this.pending.pets, bytes: this.index.bytes + this.pending.bytes };
    let item: QueuedCreate;
    try {
      this.assertOpen();
      // The id it gets if every create waiting before it is stored: the last of their block and its own.
      item = { ...prepareCreate(input, takeIds(this.db.data.nextId, this.pending.pets + 1).last, held, this.options.quota), start };
    } catch (error) {
      this.writes.settled('create', start, true, error);
      // A closed store refuses at once; a create it refuses, with its promise.
      if (this.closed) throw error;
      return Promise.reject(error as Error);
    }
    this.pending.pets += 1;
    this.pending.bytes += item.reserved;
    return this.queue.add(item);
  }

  /**
   * Replaces every pet (reset, fixture load), as a new generation of the
   * store. `pets` must already be validated, ids unique. `nextId` defaults
   * to one past the highest id.
   */
  replace(pets: readonly Pet[], nextId?: number): Promise<void> {
    return this.writes.time('replace', () => {
      this.assertOpen();
      return this.queue.exclusive(() => swapGeneration(this.generation(), pets, nextId));
    });
  }

  /** Adds pets to those stored (a fixture load with `append`); none may have an id already stored. */
  append(pets: readonly Pet[], nextId?: number): Promise<void> {
    return this.writes.time('append', () => {
      this.assertOpen();
      return this.queue.exclusive(() => {
        const clash = appendClash((id) => this.index.get(id) !== undefined, pets);
        if (clash) throw clash;
        return swapGeneration(this.generation(), [...this.index.all(), ...pets], nextId, this.nextId);
      });
    });
  }

  summary(): Summary {
    return { count: this.index.size, nextId: this.nextId };
  }

  /** The store as a fixture set in JSON pieces; what was committed when the export began. */
  exportPieces(): Iterable<string> {
    return exportJson(this.index.all(), this.nextId);
  }

  /** Resolves when everything accepted so far is on disk (or has failed). */
  flush(): Promise<void> {
    return this.queue.idle();
  }

  /**
   * Finishes pending writes, folds the log into the snapshot (unless `fold`
   * is false: the quick way to free an idle workspace) and releases the
   * log's descriptor. Later writes are refused.
   */
  async close({ fold = true } = {}): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.queue.idle();
    if (fold && !this.log.empty) await this.compactor.compact().catch(() => undefined);
    await this.log.close();
  }

  /** Releases the log's descriptor if nothing was written since `before` (ms timestamp); the next write opens it again. */
  async releaseLog(before: number): Promise<void> {
    if (!this.queue.busy && this.compactor.lastWrite < before) await this.log.close();
  }

  private assertOpen(): void {
    if (this.closed) throw new StoreError(`The store ${this.file} is closed`);
  }

  /** A batch of creates: ids assigned now, in order; one append; then visible. */
  private async commitCreates(items: QueuedCreate[]): Promise<PetText[]> {
    this.compactor.lastWrite = Date.now();
    const { text, nextId: id } = encodeBatch(items, this.db.data.epoch, this.db.data.nextId);
    const failed = await this.log.append(text).then(
      () => undefined,
      (error: unknown) => ({ error }),
    );
    // Out of `pending` and into the index in one step: a create checked in between counts each pet once.
    this.unpend(items);
    if (failed) {
      const failure = storageFailure(failed.error, items.length === 1 ? 'Could not store the pet' : `Could not store ${items.length} pets`);
      for (const item of items) this.writes.settled('create', item.start, true, failure);
      throw failure;
    }
    const texts = items.map(({ pet, json }) => ({ pet, json, byteLength: Buffer.byteLength(json) }));
    for (const text of texts) this.index.add(text.pet, text.byteLength);
    this.db.data.nextId = id;
    this.compactor.records += items.length;
    if (this.compactor.due()) void this.queue.exclusive(() => this.compactor.compact()).catch(() => undefined);
    for (const item of items) this.writes.settled('create', item.start);
    return texts;
  }

  /** What a reset or load replaces (`swapGeneration`). */
  private generation(): GenerationParts {
    return { db: this.db, index: this.index, compactor: this.compactor, quota: this.options.quota };
  }

  private unpend(items: PendingCreate[]): void {
    for (const item of items) {
      this.pending.pets -= 1;
      this.pending.bytes -= item.reserved;
    }
  }
}
