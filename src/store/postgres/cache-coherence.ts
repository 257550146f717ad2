import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type pg from 'pg';
import type { Mode } from '../../config/load.js';
import { pgDriver } from './pg-driver.js';
import { CACHE_CHANNEL, LEASE_MS, Pings } from './cache-pings.js';

/**
 * A member's registration holds LEASE_MS past its last renewal (every
 * RENEW_MS); it stops trusting what it kept MARGIN_MS sooner (room for the
 * clocks to differ in pace). A broken session listens again after RETRY_MS. All ms.
 */
const [RENEW_MS, MARGIN_MS, RETRY_MS] = [1_000, 1_000, 1_000];

const REGISTER = 'INSERT INTO petstore_cache_members (id, expires) VALUES ($1, clock_timestamp() + make_interval(secs => $2))';
/** A lease that ran out is not renewed: writes meanwhile may not have waited for this member, which must start over. */
const RENEW = 'UPDATE petstore_cache_members SET expires = clock_timestamp() + make_interval(secs => $2) WHERE id = $1 AND expires > clock_timestamp()';
const ACK = `UPDATE petstore_cache_members SET heard = greatest(heard, $2::bigint) WHERE id = $1
  RETURNING pg_notify('${CACHE_CHANNEL}', 'a ' || id || ' ' || $2::bigint) IS NULL AS notified`;
const UNREGISTER = 'DELETE FROM petstore_cache_members WHERE id = $1';

/**
 * What a member does with what it hears, in order (`state` resolves once the
 * copies of the mode and faults are current); `rejoin`, before it serves from
 * what it kept, forgets it all and reads the shared state afresh. `onError`:
 * the session broke (told once until it is back), or a write could not learn who heard it.
 */
export interface CoherenceHooks {
  version(workspace: string, version: number): void;
  gone(workspace: string): void;
  state(mode: Mode, faultsVersion: number): Promise<void>;
  rejoin(): Promise<void>;
  onError(error: unknown): void;
}

/**
 * Reads kept by every instance, coherent without asking the database before
 * each request. An instance with a session to listen on (a direct
 * connection, a pooler in session mode, or `--database-listen-url`) is a
 * member: it LISTENs on CACHE_CHANNEL, where triggers tell every change of a
 * workspace's version, a removal and a change of the mode or faults as it
 * commits, whoever made it; it registers under a lease it renews, and serves
 * from what it kept (`fresh`) only while the lease holds and the session
 * lives. A write, on any instance, is answered only once every member has
 * heard it (`published`): after its COMMIT it sends a ping, numbered in
 * COMMIT order, that lists the members; notices are heard in COMMIT order,
 * so a member that heard the ping heard the write, and acks it (its row's
 * `heard`, and a notice). A member that stops acking stops serving from what
 * it kept before its lease runs out; writes wait for it until then at most.
 * Without a session, an instance asks the database before each request
 * (StateReader) and its writes read the acks from the table.
 */
export class CacheCoherence {
  private client: pg.Client | undefined;
  /** This session's row, once registered. */
  private member: string | undefined;
  private joined = false;
  /** Until when (performance.now()) the lease surely holds. */
  private validUntil = 0;
  private chain: Promise<void> = Promise.resolve();
  /** The newest ping this session heard, and the newest it acked (or is acking). */
  private heard = 0;
  private acked = 0;
  private acking = false;
  private failing = false;
  private closed = false;
  private renewal?: NodeJS.Timeout;
  private retry?: NodeJS.Timeout;
  private readonly pings: Pings;

  constructor(
    private readonly pool: pg.Pool,
    /** Where to listen; none: never a member. */
    private readonly listenUrl: string | undefined,
    private readonly hooks: CoherenceHooks,
  ) {
    this.pings = new Pings(pool, () => ({ member: this.member, heard: this.heard, listening: this.joined }), hooks.onError);
  }

  /** Starts listening and registering, in the background; reads are asked of the database until it is done. */
  start = (): void => void (this.listenUrl !== undefined && this.connect(this.listenUrl));

  /** Whether this instance may answer from what it kept without asking the database first. */
  fresh = (): boolean => this.joined && performance.now() < this.validUntil;

  /** Resolves once every member has heard every change committed before this call; never rejects (a write it follows is stored). */
  published = (): Promise<void> => this.pings.published();

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retry);
    await this.pings.idle();
    const client = this.client;
    if (client) await this.drop(client);
  }

  private async connect(url: string): Promise<void> {
    const client = new (pgDriver().Client)({ connectionString: url });
    this.client = client;
    client.on('notification', ({ channel, payload }) => {
      if (channel !== CACHE_CHANNEL || this.client !== client) return;
      this.chain = this.chain.then(() => this.take(client, payload ?? '')).catch((error: unknown) => this.broken(client, error));
    });
    client.on('error', (error) => this.broken(client, error));
    try {
      await client.connect();
      await client.query('SET synchronous_commit TO off');
      await client.query(`LISTEN ${CACHE_CHANNEL}`);
      const member = randomUUID();
      const sent = performance.now();
      await client.query(REGISTER, [member, LEASE_MS / 1000]);
      if (this.client !== client) return;
      this.member = member;
      // Registered: every ping from now on waits for this session. What was kept before may have changed unheard.
      await this.hooks.rejoin();
      if (this.client !== client) return;
      this.validUntil = sent + LEASE_MS - MARGIN_MS;
      this.joined = true;
      this.failing = false;
      this.renewSoon(client, member);
    } catch (error) {
      this.broken(client, error);
    }
  }

  /** One notice, in the order they were committed. */
  private async take(client: pg.Client, payload: string): Promise<void> {
    const [kind, a = '', b = ''] = payload.split(' ');
    if (kind === 'w') this.hooks.version(a, Number(b));
    else if (kind === 'g') this.hooks.gone(a);
    else if (kind === 's') await this.hooks.state(a as Mode, Number(b));
    else if (kind === 'a') this.pings.ack(a, Number(b));
    else if (kind === 'p') {
      // Everything committed before the ping has been taken: this session heard it.
      this.heard = Math.max(this.heard, Number(a));
      if (this.member !== undefined) this.pings.ack(this.member, this.heard);
      void this.sendAcks(client);
    }
  }

  /** Records the newest ping heard in this session's row (and tells the writers), one statement at a time. */
  private async sendAcks(client: pg.Client): Promise<void> {
    if (this.acking) return;
    this.acking = true;
    try {
      while (this.member !== undefined && this.acked < this.heard && this.client === client) {
        const n = this.heard;
        await client.query(ACK, [this.member, n]);
        this.acked = n;
      }
    } catch (error) {
      this.broken(client, error);
    } finally {
      this.acking = false;
    }
  }

  private renewSoon(client: pg.Client, member: string): void {
    this.renewal = setTimeout(() => {
      const sent = performance.now();
      client.query(RENEW, [member, LEASE_MS / 1000]).then(
        (result) => {
          if (this.client !== client) return;
          // Gone, ran out, or ran out here (this process stood still): what it kept may have changed unheard.
          if (result.rowCount === 0 || sent > this.validUntil) return this.broken(client, new Error('the lease on kept reads ran out; they are read again'));
          this.validUntil = sent + LEASE_MS - MARGIN_MS;
          this.renewSoon(client, member);
        },
        (error: unknown) => this.broken(client, error),
      );
    }, RENEW_MS);
    this.renewal.unref();
  }

  /** The session broke: reads go to the database again at once; listening starts over shortly. */
  private broken(client: pg.Client, error: unknown): void {
    if (this.client !== client) return;
    void this.drop(client);
    if (this.closed) return;
    if (!this.failing) this.hooks.onError(error);
    this.failing = true;
    this.retry = setTimeout(() => {
      this.retry = undefined;
      if (!this.closed && this.listenUrl !== undefined) void this.connect(this.listenUrl);
    }, RETRY_MS);
    this.retry.unref();
  }

  /** Stops serving from what was kept, unregisters (its writers need not wait out its lease) and ends the session. */
  private async drop(client: pg.Client): Promise<void> {
    this.joined = false;
    this.client = undefined;
    clearTimeout(this.renewal);
    const member = this.member;
    this.member = undefined;
    this.heard = this.acked = 0;
    await Promise.all([member === undefined ? undefined : this.pool.query(UNREGISTER, [member]).catch(() => undefined), client.end().catch(() => undefined)]);
  }
}
