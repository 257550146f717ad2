import type { Low } from 'lowdb';
import type { Compactor } from './compactor.js';
import { RenamedNotDurable } from './durable-entries.js';
import { StoreFailure, storageFailure } from '../../kernel/store-errors.js';
import type { PetIndex } from '../pet-index.js';
import type { Quota } from '../rules.js';
import { nextGeneration } from '../load-rules.js';
import type { Pet, StoreData } from '../types.js';

/** What a new generation replaces: a store's snapshot, the index its reads are served from, the compactor that empties its log. */
export interface GenerationParts {
  db: Low<StoreData>;
  index: PetIndex;
  compactor: Compactor;
  quota: Quota | undefined;
}

/**
 * A store's pets replaced (a reset, a fixture load) as a new generation:
 * written aside, renamed over the snapshot, and only then served; an
 * append's keeps at least the next id held (`heldNextId`). A failed write
 * changes nothing. The caller runs it alone, between batches of creates.
 */
export async function swapGeneration(parts: GenerationParts, pets: readonly Pet[], nextId: number | undefined, heldNextId?: number): Promise<void> {
  const { db, index, compactor } = parts;
  const { pets: sorted, bytes, nextId: next } = nextGeneration(pets, nextId, parts.quota, heldNextId);
  const data: StoreData = { format: 1, epoch: db.data.epoch + 1, nextId: next, pets: sorted };
  const unsynced = await db.adapter.write(data).then(
    () => undefined,
    (error: unknown) => {
      if (error instanceof RenamedNotDurable) return error;
      throw storageFailure(error, 'Could not replace the data');
    },
  );
  // Once renamed, the new file is what a restart reads: it is served, and later creates are of its generation.
  db.data = data;
  index.reset(sorted, bytes);
  // Its folder could not be synced: the log keeps the old generation for a power cut, and creates wait for the sync (CommitLog.append).
  if (unsynced)
    throw new StoreFailure(
      'service_unavailable',
      `The data was replaced, but its folder could not be synced (${unsynced.code ?? 'unknown error'}), so it may not survive a power cut.`,
      unsynced,
    );
  // Records left in the log are of the old generation: replay skips them, so emptying it may wait.
  await compactor.clearLog();
}
