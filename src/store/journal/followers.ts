import type { JournalEntry, JournalListener } from './types.js';

/**
 * The live tails of the journals (`/journal/stream`): listeners by journal,
 * shared by the in-process journal and the PostgreSQL one. Empty but for
 * open streams; a journal nobody follows any more gives up its map slot.
 */
export class JournalFollowers {
  private readonly byJournal = new Map<string, Set<JournalListener>>();

  /** Whether no journal is followed at all: one check on the hot path while no stream is open. */
  get idle(): boolean {
    return this.byJournal.size === 0;
  }

  /** Whether anyone follows `journal`. */
  follows(journal: string): boolean {
    return this.byJournal.has(journal);
  }

  /** Calls `listener` with each entry told for `journal` from now on, until the returned function is called. */
  follow(journal: string, listener: JournalListener): () => void {
    let set = this.byJournal.get(journal);
    if (!set) this.byJournal.set(journal, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0 && this.byJournal.get(journal) === set) this.byJournal.delete(journal);
    };
  }

  /** Gives each follower of `journal` the entry `show` makes, with its `id`; made once, and only when someone follows (showing checks the spec). */
  tell(journal: string, id: number, show: () => JournalEntry): void {
    const set = this.byJournal.get(journal);
    if (!set) return;
    const entry = show();
    for (const listener of set) listener(entry, id);
  }
}
