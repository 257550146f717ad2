import { parseQuery } from '../../kernel/query-string.js';
import type { Issue } from '../../openapi/validate.js';
import { showBody, textBytes } from './body.js';
import { CoverageTally } from './coverage-tally.js';
import type { CoverageCount } from './coverage-types.js';
import { JournalFollowers } from './followers.js';
import type { JournalEntry, JournalListener, JournalMemory, JournalRecord, JournalSince, ResponseCheck, SpecIssue } from './types.js';

/** The journal of requests without a valid API key (none, malformed or unknown): it belongs to no workspace. */
export const UNAUTHENTICATED = 'unauthenticated';

/**
 * Memory of an entry besides its strings (its record, two bodies, list node
 * and their numbers), and of a journal besides its entries (its ring, map
 * slot and id), measured (test/robustness/journal-accounting.test.ts) and
 * rounded up; strings count as V8 stores them (`textBytes`), so the budget
 * is what the heap holds, neither half of it nor twice. Measured again once
 * the engine reported plain values: an entry of a tiny body with a journal
 * of its own held 650 to 750 bytes (384 + 256 overestimated it by a
 * quarter), an entry among few journals still about 330 besides its text.
 */
export const ENTRY_BYTES = 352;
export const JOURNAL_BYTES = 192;

/** A proxied entry's violations (or the issues found at capture): their strings and, rounded up, each object's own memory. */
const violationBytes = (list: readonly Issue[] | undefined): number => (list ?? []).reduce((n, v) => n + 96 + 2 * (v.name.length + v.message.length), 0);

/** Bytes an entry is accounted in the budget. */
export const entryBytes = (r: JournalRecord): number =>
  ENTRY_BYTES +
  textBytes(r.url) +
  (r.request ? textBytes(r.request.text) : 0) +
  (r.response ? textBytes(r.response.text) : 0) +
  violationBytes(r.violations) +
  violationBytes(r.specIssues) +
  (r.credential === undefined ? 0 : textBytes(r.credential));

/** An entry in two queues: all journals' by age (for the budget) and its own journal's. */
class Kept {
  older: Kept | undefined;
  newer: Kept | undefined;
  /** The next newer entry of the same journal. */
  next: Kept | undefined;
  constructor(
    readonly id: number,
    readonly record: JournalRecord,
    readonly bytes: number,
    readonly ring: Ring,
  ) {}
}

interface Ring {
  readonly id: string;
  oldest: Kept | undefined;
  newest: Kept | undefined;
  count: number;
  /** The id of the newest entry dropped from this journal (cut or evicted), or, for a journal made afresh, the newest of all dropped then. */
  dropped: number;
}

/**
 * Where entry ids start: the clock at start in microseconds, so that a
 * restarted server (whose journals, in memory, started empty) gives ids
 * above those it gave before, as long as it gave fewer than a thousand a
 * millisecond on average; below 2^53 until the year 2255.
 */
const firstId = (): number => Date.now() * 1000;

/**
 * The last `size` requests of each journal (a workspace's, or the
 * unauthenticated one), within one byte budget across all of them. Past the
 * budget the globally oldest entries go first, whichever journal holds
 * them; each step is O(1), because entries are linked in one queue by age
 * besides their own journal's. A journal whose entries are all gone gives
 * up its map slot, so ever new keys (with --open-keys) cost nothing once
 * their entries are evicted.
 */
export class Journal {
  private readonly rings = new Map<string, Ring>();
  private oldest: Kept | undefined;
  private newest: Kept | undefined;
  private bytes = 0;
  private kept = 0;
  private evicted = 0;
  /** The id of the last entry added (of any journal: ids increase within each). */
  private lastId = firstId();
  /** The id of the newest entry dropped from any journal, or cleared; what came before this process counts as dropped. */
  private dropped = this.lastId;
  /** The live tail of the control plane. */
  private readonly followers = new JournalFollowers();
  /** Every request's operation and status, counted whatever the ring evicts: the coverage report's source. */
  private readonly tally = new CoverageTally();

  /** `check` tells what an exchange broke of the spec; run on read, off the hot path. */
  constructor(
    readonly size: number,
    readonly budget: number,
    private readonly check: ResponseCheck = () => [],
  ) {}

  add(journal: string, record: JournalRecord): void {
    const id = ++this.lastId;
    // One size check when no stream is open; an entry is shown (and checked against the spec) only for a follower.
    if (!this.followers.idle) this.followers.tell(journal, id, () => this.show(record));
    if (this.size === 0) return;
    // Counted in the budget with the journal they belong to, and released with it (below, in dropOldest).
    this.bytes += this.tally.count(journal, record.operationId, record.status);
    let ring = this.rings.get(journal);
    if (!ring) {
      this.rings.set(journal, (ring = { id: journal, oldest: undefined, newest: undefined, count: 0, dropped: this.dropped }));
      this.bytes += JOURNAL_BYTES;
    }
    const kept = new Kept(id, record, entryBytes(record), ring);
    if (ring.newest) ring.newest.next = kept;
    else ring.oldest = kept;
    ring.newest = kept;
    ring.count += 1;
    kept.older = this.newest;
    if (this.newest) this.newest.newer = kept;
    else this.oldest = kept;
    this.newest = kept;
    this.bytes += kept.bytes;
    this.kept += 1;
    if (ring.count > this.size) this.dropOldest(ring);
    while (this.bytes > this.budget && this.oldest) {
      // The oldest of all is the oldest of its own journal: both queues are in order of arrival.
      this.dropOldest(this.oldest.ring);
      this.evicted += 1;
    }
  }

  /** The newest `limit` entries of a journal, oldest first. */
  read(journal: string, limit = this.size): JournalEntry[] {
    const ring = this.rings.get(journal);
    const entries: JournalEntry[] = [];
    let skip = (ring?.count ?? 0) - limit;
    for (let k = ring?.oldest; k; k = k.next) if (skip-- <= 0) entries.push(this.show(k.record));
    return entries;
  }

  /** The entries kept whose id is above `after`, and whether some after it were dropped (the ids of a journal are not consecutive: all journals share one count). */
  since(journal: string, after: number): JournalSince {
    const ring = this.rings.get(journal);
    const entries: JournalSince['entries'] = [];
    for (let k = ring?.oldest; k; k = k.next) if (k.id > after) entries.push({ id: k.id, entry: this.show(k.record) });
    return { entries, gap: after < (ring?.dropped ?? this.dropped) };
  }

  /** Forgets a journal's entries and its counts; returns how many entries there were. */
  clear(journal: string): number {
    this.bytes -= this.tally.clear(journal);
    const ring = this.rings.get(journal);
    if (!ring) return 0;
    const n = ring.count;
    while (ring.oldest) this.dropOldest(ring);
    return n;
  }

  /** Requests of a journal (or of all: `undefined`) by operation and status, since it was last cleared. */
  counts(journal: string | undefined): CoverageCount[] {
    return this.tally.read(journal);
  }

  /** Calls `listener` with each entry added to `journal` from now on, until the returned function is called. */
  follow(journal: string, listener: JournalListener): () => void {
    return this.followers.follow(journal, listener);
  }

  memory(): JournalMemory {
    return { bytes: this.bytes, budget: this.budget, kept: this.kept, evicted: this.evicted };
  }

  private dropOldest(ring: Ring): void {
    const kept = ring.oldest as Kept;
    ring.dropped = kept.id;
    this.dropped = Math.max(this.dropped, kept.id);
    ring.oldest = kept.next;
    ring.count -= 1;
    if (kept.older) kept.older.newer = kept.newer;
    else this.oldest = kept.newer;
    if (kept.newer) kept.newer.older = kept.older;
    else this.newest = kept.older;
    this.bytes -= kept.bytes;
    this.kept -= 1;
    if (ring.oldest) return;
    ring.newest = undefined;
    this.rings.delete(ring.id);
    // A journal whose last entry the budget evicted goes whole, its counts too: what ever-new keys (--open-keys) hold stays bounded.
    this.bytes -= JOURNAL_BYTES + this.tally.clear(ring.id);
  }

  private show(r: JournalRecord): JournalEntry {
    return showRecord(r, this.check);
  }
}

/** A captured record as the control plane shows it; `check` tells what the exchange broke of the spec. */
export function showRecord(r: JournalRecord, check: ResponseCheck): JournalEntry {
  const q = r.url.indexOf('?');
  const responseBody = showBody(r.response);
  return {
    time: new Date(r.time).toISOString(),
    method: r.method,
    path: q === -1 ? r.url : r.url.slice(0, q),
    // parse() never gives an undefined value: each is a string, or an array for a repeated name.
    query: q === -1 ? {} : ({ ...parseQuery(r.url.slice(q + 1)) } as Record<string, string | string[]>),
    operationId: r.operationId,
    status: r.status,
    durationMs: r.durationMs,
    requestBody: showBody(r.request),
    responseBody,
    ...verdict(r.specIssues ?? check(r.operationId, r.status, responseBody)),
    ...(r.violations ? { violations: r.violations } : {}),
    ...(r.credential === undefined ? {} : { credential: r.credential }),
  };
}

/** `specValid`, and the issues that make it false. */
const verdict = (issues: Issue[]): Pick<JournalEntry, 'specValid' | 'specIssues'> =>
  issues.length === 0 ?
    { specValid: true }
  : { specValid: false, specIssues: issues.map(({ in: where, name, message }) => ({ in: where as SpecIssue['in'], name, message })) };
