import type pg from 'pg';
import { pgDriver } from './pg-driver.js';
import type { JournalRecord } from '../journal/types.js';
import type { TailSource } from './pooler.js';

/** The channel every journal write notifies, with the workspaces it wrote (or `*`). */
export const JOURNAL_CHANNEL = 'petstore_journal';

/** A notice names at most this many workspaces; past it, `*` (a notice's payload is limited to 8,000 bytes). */
const MAX_NAMED = 100;

/** The payload of a journal write's notice: the workspaces it wrote. */
export const noticeOf = (workspaces: Iterable<string>): string => {
  const names = [...new Set(workspaces)];
  return names.length > MAX_NAMED ? '*' : names.join(',');
};

/** How long a workspace's first read waits for the connection to listen, ms. */
const LISTEN_WAIT_MS = 2_000;

/** How long to wait before listening again after the connection broke, ms. */
const RETRY_MS = 1_000;

/**
 * Every instance's requests, this one's too, for this instance's live tails
 * (`/journal/stream`), in the order of their seqs. While any workspace is
 * followed here, a connection of its own (not the pool's) LISTENs on
 * JOURNAL_CHANNEL, which every journal write notifies on COMMIT; on a notice
 * naming a followed workspace, its entries since the last one told are read
 * and told, in order. Where no session can listen (a pooler in transaction
 * mode without `--database-listen-url`), the followed workspaces' entries
 * are read every `pollMs` instead, one query per followed workspace. Journal
 * writes take their seqs in turn and commit in that order (journal-insert.ts),
 * so a read up to a seq has every entry below it: a stream resumed after an
 * id on any instance misses none and repeats none. While the database is out
 * of reach a tail tells nothing, and tells it all once it is back.
 */
export class JournalTail {
  private client: pg.Client | undefined;
  /** Per followed workspace, the last seq told (undefined until read). */
  private readonly last = new Map<string, string | undefined>();
  private chain: Promise<void> = Promise.resolve();
  /** Settles once the connection listens (or failed to): a workspace's starting seq is read after it, so no entry falls between them. */
  private listening: Promise<void> = Promise.resolve();
  private retry: NodeJS.Timeout | undefined;
  /** The next poll, when polling; whether the last poll failed (an outage is reported once, not every poll). */
  private poll: NodeJS.Timeout | undefined;
  private pollFailing = false;

  constructor(
    private readonly source: TailSource,
    private readonly pool: pg.Pool,
    private readonly tell: (workspace: string, seq: number, record: JournalRecord) => void,
    private readonly onError: (error: unknown) => void,
  ) {}

  /** Follows `workspace` from now on; listens if nothing was followed. */
  add(workspace: string): void {
    if (this.last.has(workspace)) return;
    this.last.set(workspace, undefined);
    if ('pollMs' in this.source) this.pollSoon(this.source.pollMs);
    else if (!this.client && !this.retry) this.listening = this.listen(this.source.listenUrl);
    this.queue(async () => {
      // Read once listening (or given up waiting, the database out of reach): whatever commits after this read notifies this tail.
      await Promise.race([this.listening, new Promise((resolve) => setTimeout(resolve, LISTEN_WAIT_MS).unref())]);
      const { rows } = await this.pool.query<{ seq: string }>('SELECT coalesce(max(seq), 0) AS seq FROM petstore_journal WHERE workspace = $1', [workspace]);
      if (this.last.has(workspace)) this.last.set(workspace, rows[0]?.seq ?? '0');
    });
  }

  /** Resolves once what is queued is done: a workspace just followed knows the seq its tail starts after. */
  async ready(): Promise<void> {
    await this.chain;
  }

  /** Stops following `workspace`; stops listening when nothing is followed. */
  remove(workspace: string): void {
    this.last.delete(workspace);
    if (this.last.size > 0) return;
    clearTimeout(this.retry);
    this.retry = undefined;
    clearTimeout(this.poll);
    this.poll = undefined;
    const client = this.client;
    this.client = undefined;
    void client?.end().catch(() => undefined);
  }

  /** Stops listening, whatever is followed (the backend closing). */
  close(): void {
    for (const workspace of [...this.last.keys()]) this.remove(workspace);
  }

  /** Reads the followed workspaces' new entries in `ms`, then again, while anything is followed. */
  private pollSoon(ms: number): void {
    if (this.poll || this.last.size === 0) return;
    const poll = setTimeout(() => {
      this.queue(() => this.pollOnce());
      void this.chain.then(() => {
        if (this.poll !== poll) return;
        this.poll = undefined;
        this.pollSoon(ms);
      });
    }, ms);
    this.poll = poll;
    poll.unref();
  }

  /** One poll: every followed workspace's new entries; a failure reported only when the poll before it succeeded. */
  private async pollOnce(): Promise<void> {
    try {
      await this.readNew('*');
      this.pollFailing = false;
    } catch (error) {
      if (!this.pollFailing) this.onError(error);
      this.pollFailing = true;
    }
  }

  private async listen(url: string): Promise<void> {
    const client = new (pgDriver().Client)({ connectionString: url });
    this.client = client;
    client.on('notification', (notice) => {
      if (notice.channel === JOURNAL_CHANNEL) this.queue(() => this.readNew(notice.payload ?? '*'));
    });
    client.on('error', (error) => this.broken(client, url, error));
    try {
      await client.connect();
      await client.query(`LISTEN ${JOURNAL_CHANNEL}`);
    } catch (error) {
      this.broken(client, url, error);
    }
  }

  /** The connection failed: listen again shortly, while anything is followed. */
  private broken(client: pg.Client, url: string, error: unknown): void {
    if (this.client !== client) return;
    this.client = undefined;
    void client.end().catch(() => undefined);
    this.onError(error);
    this.retry = setTimeout(() => {
      this.retry = undefined;
      if (this.last.size > 0) void this.listen(url);
    }, RETRY_MS);
    this.retry.unref();
  }

  /** The entries other instances wrote since the last told, of the followed workspaces a notice names. */
  private async readNew(payload: string): Promise<void> {
    const named = payload === '*' ? undefined : new Set(payload.split(','));
    for (const [workspace, after] of this.last) {
      if (after === undefined || (named && !named.has(workspace))) continue;
      const { rows } = await this.pool.query<{ seq: string; record: string }>(
        'SELECT seq, record FROM petstore_journal WHERE workspace = $1 AND seq > $2 ORDER BY seq',
        [workspace, after],
      );
      const newest = rows.at(-1);
      if (!newest || !this.last.has(workspace)) continue;
      this.last.set(workspace, newest.seq);
      for (const row of rows) this.tell(workspace, Number(row.seq), JSON.parse(row.record) as JournalRecord);
    }
  }

  /** Runs `work` after what is queued, one at a time; a failure is reported, not thrown. */
  private queue(work: () => Promise<void>): void {
    this.chain = this.chain.then(work).catch(this.onError);
  }
}
