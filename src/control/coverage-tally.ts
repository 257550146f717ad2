import type { CoverageCount } from './coverage-types.js';

/**
 * Requests counted per journal by operation and status, kept beside the
 * journal's entries rather than derived from them: the journal keeps only
 * its newest entries (`--journal-size`, `--journal-memory`), the counts
 * every request since the journal was last cleared. A journal holds at most
 * a few dozen counters (operations × statuses), so they cost next to nothing.
 */
export class CoverageTally {
  /** Per journal: counts by `${status} ${operationId}` (an empty id for a request no operation matched). */
  private readonly journals = new Map<string, Map<string, number>>();

  count(journal: string, operationId: string | null, status: number): void {
    let counts = this.journals.get(journal);
    if (!counts) this.journals.set(journal, (counts = new Map()));
    const key = `${status} ${operationId ?? ''}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }

  clear(journal: string): void {
    this.journals.delete(journal);
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
