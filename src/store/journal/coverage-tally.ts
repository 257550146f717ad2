import type { CoverageCount } from './coverage-types.js';

/**
 * Memory of a journal's counts (their map, its slot and the journal's id),
 * and of each count (its key and slot), measured as the journal's entries
 * were (V8's heap, 20,000 journals of 1 and of 21 counts: 314 and 2,110
 * bytes) and rounded up.
 */
export const COUNTS_BYTES = 256;
export const COUNT_BYTES = 96;

/**
 * Requests counted per journal by operation and status, kept beside the
 * journal's entries rather than derived from them: the journal keeps only
 * its newest entries (`--journal-size`, `--journal-memory`), the counts
 * every request since the journal was last cleared. Their memory is
 * counted in the journals' budget, a few hundred bytes a journal, and they
 * go when their journal goes: cleared, or all its entries evicted for the
 * budget (never for `--journal-size`, which keeps the newest entries).
 */
export class CoverageTally {
  /** Per journal: counts by `${status} ${operationId}` (an empty id for a request no operation matched). */
  private readonly journals = new Map<string, Map<string, number>>();

  /** Counts one request; returns the bytes this newly holds for it (0 unless a journal or a count is new). */
  count(journal: string, operationId: string | null, status: number): number {
    let added = 0;
    let counts = this.journals.get(journal);
    if (!counts) {
      this.journals.set(journal, (counts = new Map()));
      added += COUNTS_BYTES;
    }
    const key = `${status} ${operationId ?? ''}`;
    const n = counts.get(key) ?? 0;
    counts.set(key, n + 1);
    return n === 0 ? added + COUNT_BYTES : added;
  }

  /** Forgets a journal's counts; returns the bytes they held. */
  clear(journal: string): number {
    const counts = this.journals.get(journal);
    if (!counts) return 0;
    this.journals.delete(journal);
    return COUNTS_BYTES + counts.size * COUNT_BYTES;
  }

  /** The counts of one journal, or summed over every journal (`undefined`). */
  read(journal: string | undefined): CoverageCount[] {
    const sum = new Map<string, number>();
    const sources = journal === undefined ? [...this.journals.values()] : [this.journals.get(journal) ?? new Map<string, number>()];
    for (const counts of sources) for (const [key, n] of counts) sum.set(key, (sum.get(key) ?? 0) + n);
    return [...sum].map(([key, count]) => {
      const space = key.indexOf(' ');
      const id = key.slice(space + 1);
      return { operationId: id === '' ? null : id, status: Number(key.slice(0, space)), count };
    });
  }
}
