import type pg from 'pg';
import { pgDriver } from './pg-driver.js';
import { unnamedClient } from './pooler.js';
import type { DatabasePooler } from '../../config/store.js';
import { StoreError, StoreFailure } from '../../kernel/store-errors.js';

/** Where a database is, for messages: `host:port/database`, never the user's password. */
export function describeTarget(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname}:${u.port || '5432'}${u.pathname || '/'}`;
  } catch {
    return 'an unreadable URL';
  }
}

/**
 * The database a URL names, as a command reports what it worked on:
 * host:port/database, and the user when the URL names one. Never the
 * password.
 */
export function describeDatabase(url: string): { database: string; user?: string } {
  const database = describeTarget(url);
  try {
    const user = decodeURIComponent(new URL(url).username);
    return user ? { database, user } : { database };
  } catch {
    return { database };
  }
}

/** SQLSTATE classes and Node errors that mean the database cannot be reached now, rather than that a statement is wrong. */
const UNREACHABLE_ERRNOS = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'EPIPE']);

/** Whether an error of `pg` says the database is down, restarting or out of reach. */
function isUnreachable(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && (UNREACHABLE_ERRNOS.has(code) || /^(08|57P)/.test(code))) return true;
  const message = (error as Error | null)?.message ?? '';
  return /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection refused/i.test(message);
}

/**
 * A failed database operation as the client is answered: the database out
 * of reach 503, out of disk 507; anything else is a defect and stays as it
 * is (500). `action` says what was attempted.
 */
function databaseFailure(error: unknown, action: string): unknown {
  if (error instanceof StoreFailure) return error;
  if (isUnreachable(error))
    return new StoreFailure('service_unavailable', `${action}: the database cannot be reached. Nothing was changed. Try again shortly.`, error);
  const code = (error as { code?: unknown } | null)?.code;
  if (code === '53100') return new StoreFailure('insufficient_storage', `${action}: the database's disk is full. Nothing was changed.`, error);
  if (code === '53300') return new StoreFailure('service_unavailable', `${action}: the database has no connection left. Try again shortly.`, error);
  return error;
}

/** A `.catch` handler for a database operation: its error thrown again as `databaseFailure` makes it, for `action`. */
export const failed =
  (action: string) =>
  (error: unknown): never => {
    throw databaseFailure(error, action);
  };

export interface PoolOptions {
  url: string;
  /** Connections held at most (`--pg-pool-size`). */
  size: number;
  /** `--database-pooler`: in transaction mode every query goes unnamed (pooler.ts). */
  pooler: DatabasePooler;
  /** Where errors of idle connections go (the database restarting, say): they must not stop the process. */
  onIdleError: (error: Error) => void;
}

/** How long a request waits for a connection before it is answered 503. */
const CONNECT_TIMEOUT_MS = 5_000;

/**
 * A bounded pool of connections. A request that finds every connection
 * busy waits for one; one that cannot connect within CONNECT_TIMEOUT_MS
 * fails, and is answered 503 (databaseFailure).
 */
export function createPool({ url, size, pooler, onIdleError }: PoolOptions): pg.Pool {
  let config: pg.PoolConfig;
  try {
    new URL(url);
    config = { connectionString: url };
  } catch {
    throw new StoreError(`--store is not a PostgreSQL URL such as postgres://user:password@host:5432/database (${describeTarget(url)}).`);
  }
  const driver = pgDriver();
  const client = pooler === 'transaction' ? { Client: unnamedClient(driver) } : {};
  // An idle connection (kept 30 s for the next burst) never holds the process: what an instance holds after its requests
  // left is only what they still use. (The listening sessions do hold it: a close waits for them to end.)
  const pool = new driver.Pool({
    ...config,
    ...client,
    max: size,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    idleTimeoutMillis: 30_000,
    keepAlive: true,
    allowExitOnIdle: true,
  });
  pool.on('error', onIdleError);
  return pool;
}

/** Runs `work` in one transaction on one connection: COMMIT when it resolves, ROLLBACK when it throws. */
export async function transaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>, isolation = 'READ COMMITTED'): Promise<T> {
  const client = await pool.connect();
  let broken = false;
  try {
    await client.query(`BEGIN ISOLATION LEVEL ${isolation}`);
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => (broken = true));
    throw error;
  } finally {
    client.release(broken);
  }
}
