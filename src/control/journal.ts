/** One request as the journal keeps it. */
export interface JournalEntry {
  time: string;
  method: string;
  path: string;
  query: Record<string, unknown>;
  operationId: string | null;
  status: number;
  durationMs: number;
  requestBody: unknown;
  responseBody: unknown;
  /** Whether the response matched the spec; computed when the journal is read. */
  specValid?: boolean;
}

/** Bodies longer than this (as JSON text) are kept as a truncated string (README, "Limits"). */
export const JOURNAL_BODY_LIMIT = 4096;

/** A body as kept: the value itself, or its first JOURNAL_BODY_LIMIT characters of JSON and a marker. */
export function keepBody(body: unknown): unknown {
  if (body === undefined) return null;
  const text = JSON.stringify(body);
  if (text === undefined || text.length <= JOURNAL_BODY_LIMIT) return body;
  return { truncated: true, size: text.length, text: text.slice(0, JOURNAL_BODY_LIMIT) };
}

/**
 * The last `size` requests of each workspace, in a ring buffer: memory is
 * bounded by size x workspaces, whatever the traffic. Bodies are kept by
 * reference (the sandbox never mutates them) and truncated when read, so
 * the hot path serializes nothing twice; callers truncate large request
 * bodies before adding them.
 */
export class Journal {
  private readonly rings = new Map<string, { entries: JournalEntry[]; next: number }>();

  /** `check` tells whether an entry's response matched the spec; run on read, off the hot path. */
  constructor(
    readonly size: number,
    private readonly check: (entry: JournalEntry) => boolean = () => true,
  ) {}

  add(workspace: string, entry: JournalEntry): void {
    if (this.size === 0) return;
    let ring = this.rings.get(workspace);
    if (!ring) this.rings.set(workspace, (ring = { entries: [], next: 0 }));
    if (ring.entries.length < this.size) ring.entries.push(entry);
    else ring.entries[ring.next] = entry;
    ring.next = (ring.next + 1) % this.size;
  }

  /** The newest `limit` entries, oldest first. */
  read(workspace: string, limit = this.size): JournalEntry[] {
    const ring = this.rings.get(workspace);
    if (!ring) return [];
    const ordered = ring.entries.length < this.size ? ring.entries : [...ring.entries.slice(ring.next), ...ring.entries.slice(0, ring.next)];
    return ordered
      .slice(Math.max(0, ordered.length - limit))
      .map((e) => ({ ...e, specValid: this.check(e), requestBody: keepBody(e.requestBody), responseBody: keepBody(e.responseBody) }));
  }

  clear(workspace: string): number {
    const n = this.rings.get(workspace)?.entries.length ?? 0;
    this.rings.delete(workspace);
    return n;
  }
}
