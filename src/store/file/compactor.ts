import type { Low } from 'lowdb';
import type { CommitLog } from './commit-log.js';
import type { PetIndex } from '../pet-index.js';
import type { Pet, StoreData } from '../types.js';

/** After a failed compaction, the next try waits this long (the log keeps every write meanwhile). */
const COMPACT_RETRY_MS = 10_000;

/**
 * Folds a store's commit log into its lowdb snapshot: when the log holds
 * more than `compactAfter` records and more records than the snapshot holds
 * pets, on reset and load, on close. Folding rewrites every pet, so waiting
 * for as many records as the snapshot holds keeps its cost per create
 * constant (at most about two pets written per create) whatever the size of
 * the store. Folding is housekeeping: when it fails the log still holds
 * every write, and it is tried again later.
 */
export class Compactor {
  /** Records in the log. */
  records = 0;
  /** When the log was last written or emptied (ms timestamp). */
  lastWrite = 0;
  private notBefore = 0;

  constructor(
    private readonly db: Low<StoreData>,
    private readonly log: CommitLog,
    private readonly index: PetIndex,
    private readonly options: { file: string; compactAfter?: number; warn?: (message: string) => void },
  ) {}

  /** Whether the log has grown enough to be folded now: past `compactAfter` records, and past the pets of the snapshot. */
  due(): boolean {
    // The index holds the snapshot's pets and the log's: the log's own records are not in the snapshot.
    const inSnapshot = this.index.size - this.records;
    return this.records > Math.max(this.options.compactAfter ?? 20_000, inSnapshot) && Date.now() >= this.notBefore;
  }

  /** Rewrites the snapshot with everything committed, then empties the log. Failures are retried later. */
  async compact(): Promise<void> {
    try {
      this.db.data.pets = this.index.all() as Pet[];
      await this.db.write();
    } catch (error) {
      this.notBefore = Date.now() + COMPACT_RETRY_MS;
      this.options.warn?.(
        `Could not fold ${this.options.file}.log into ${this.options.file} (${(error as Error).message}); every write is kept in the log, and folding is tried again later.`,
      );
      throw error;
    }
    await this.clearLog();
  }

  /** Empties the log; records left by a failure are all in the snapshot or of an old generation, and skipped on start-up. */
  async clearLog(): Promise<void> {
    this.lastWrite = Date.now();
    try {
      await this.log.clear();
      this.records = 0;
    } catch (error) {
      this.notBefore = Date.now() + COMPACT_RETRY_MS;
      this.options.warn?.(
        `Could not empty ${this.options.file}.log (${(error as Error).message}); its records are all in ${this.options.file} already and are skipped on start-up.`,
      );
    }
  }
}
