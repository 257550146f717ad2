import { setTimeout as sleep } from 'node:timers/promises';
import { performance } from 'node:perf_hooks';
import type pg from 'pg';
import { BatchQueue, rejectEach } from './batch-queue.js';

/** The channel the triggers (migration 6), the pings and the members' acks notify on. */
export const CACHE_CHANNEL = 'petstore_cache';

/** How long a member's registration holds past its last renewal, ms. */
export const LEASE_MS = 5_000;

/** How often a write waiting for acks reads the members' rows (one gone, an ack not heard): while listening, and not, ms. */
const CHECK_MS = 100;
const POLL_MS = 5;

/** Pings take their numbers under this lock, held to COMMIT: they commit, so are heard, in the order of their numbers. */
const PING_LOCK = 0x5e7_ca5e;

const PING = `WITH l AS MATERIALIZED (SELECT pg_advisory_xact_lock(${PING_LOCK})),
       p AS MATERIALIZED (SELECT nextval('petstore_cache_pings') AS n FROM l)
  SELECT p.n::text AS n, pg_notify('${CACHE_CHANNEL}', 'p ' || p.n) IS NULL AS notified,
    ARRAY(SELECT id FROM petstore_cache_members WHERE expires > clock_timestamp()) AS members,
    set_config('synchronous_commit', 'off', true) AS async_commit
  FROM p`;
const UNHEARD = 'SELECT id FROM petstore_cache_members WHERE id = ANY($1) AND heard < $2 AND expires > clock_timestamp()';

/** A write waiting for the members its ping listed to hear it. */
interface Wait {
  n: number;
  members: Set<string>;
  wake(): void;
}

type Waiting = { resolve(): void; reject(error: unknown): void };

/** This instance's own session, as the pings see it: its member id once registered, the newest ping it heard, whether it listens. */
export type Session = () => { member: string | undefined; heard: number; listening: boolean };

/**
 * The writes' side of CacheCoherence: after its COMMIT a write waits for a
 * ping, sent through the pool (one for the writes that came while the last
 * ran), numbered in COMMIT order and listing the members, to be heard by
 * each of them: by its ack (a notice this instance hears when it listens;
 * its row's `heard` in any case), or its row gone or its lease run out.
 */
export class Pings {
  private readonly waits = new Set<Wait>();
  private readonly queue = new BatchQueue<Waiting>((batch) => this.ping(batch), { failed: rejectEach });

  constructor(
    private readonly pool: pg.Pool,
    private readonly session: Session,
    private readonly onError: (error: unknown) => void,
  ) {}

  /** Resolves once every member has heard every change committed before this call; never rejects (a write it follows is stored). */
  published(): Promise<void> {
    return new Promise((resolve, reject) => this.queue.push({ resolve, reject }));
  }

  /** `member` heard every ping up to `n`. */
  ack(member: string, n: number): void {
    for (const wait of this.waits) {
      if (wait.n > n || !wait.members.delete(member)) continue;
      if (wait.members.size === 0) wait.wake();
    }
  }

  idle(): Promise<void> {
    return this.queue.idle();
  }

  private async ping(batch: Waiting[]): Promise<void> {
    const started = performance.now();
    try {
      const { rows } = await this.pool.query<{ n: string; members: string[] }>(PING);
      const row = rows[0];
      if (row && row.members.length > 0) await this.heardBy(Number(row.n), new Set(row.members));
    } catch (error) {
      this.onError(error);
      // Who heard is unknown: once a lease has passed, every member that did not hear has stopped serving what it kept.
      await sleep(Math.max(0, started + LEASE_MS - performance.now()));
    }
    for (const waiting of batch) waiting.resolve();
  }

  /** Resolves once each of `members` acked ping `n`, or is gone (its row deleted, or its lease run out). */
  private async heardBy(n: number, members: Set<string>): Promise<void> {
    const self = this.session();
    if (self.member !== undefined && self.heard >= n) members.delete(self.member);
    const wait: Wait = { n, members, wake: () => undefined };
    this.waits.add(wait);
    try {
      while (members.size > 0) {
        // A timer that holds the process: a write is waiting on it (a QA command's process, or a script's, would
        // otherwise end here, as idle connections do not hold it).
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, this.session().listening ? CHECK_MS : POLL_MS);
          wait.wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        if (members.size === 0) break;
        const { rows } = await this.pool.query<{ id: string }>(UNHEARD, [[...members], n]);
        const left = new Set(rows.map((r) => r.id));
        for (const id of members) if (!left.has(id)) members.delete(id);
      }
    } finally {
      this.waits.delete(wait);
    }
  }
}
