import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import type { Backend, MaybePromise, ModeStore } from '../backend.js';
import type { Config, Mode } from '../../config/load.js';
import type { ResponseCheck } from '../journal/types.js';
import type { Logger } from '../../kernel/logger.js';
import type { OperationSpec } from '../../openapi/spec.js';
import { StoreError } from '../../kernel/store-errors.js';
import type { RemovalReason } from '../open-key-policy.js';
import { PgCheckpoints } from './checkpoints.js';
import { PgFaults } from './faults.js';
import { PgJournal } from './journal.js';
import { migrate } from './migrations.js';
import { createPool, describeTarget, failed } from './pool.js';
import { StateReader } from './state-reader.js';
import { PgWorkspaces, type PgWorkspacesOptions } from './workspaces.js';
import { loadPg } from './pg-driver.js';
import { createPgItemStore } from './items.js';
import { byWorkspaceId } from '../items/by-workspace-id.js';
import { tailSource, type TailSource } from './pooler.js';
import { CacheCoherence } from './cache-coherence.js';

/** Bytes of pet reads each instance keeps for reuse while their workspace is unchanged. */
const READ_CACHE_BYTES = 16 * 2 ** 20;

export interface PostgresBackendOptions {
  config: Config;
  url: string;
  logger: Logger;
  checkResponse: ResponseCheck;
  operations: ReadonlyMap<string, OperationSpec>;
  /**
   * Whether this process's `--mode` becomes the shared mode. Default: when
   * `--mode` or PETSTORE_MODE was given (`config.modeGiven`), so that an
   * instance restarted without one (a rolling deploy) keeps the mode the
   * control plane set; a QA command passes false.
   */
  claimMode?: boolean;
  /** Whether this process removes open keys' workspaces (docs/open-keys.md). Default true; a QA command passes false. */
  removeOpenKeys?: boolean;
  /**
   * Whether this process listens, to answer reads from what it kept without
   * asking the database first (cache-coherence.ts), where it has a session to
   * listen on. Default true; a QA command, which serves nothing, passes false.
   */
  keepReads?: boolean;
}

/**
 * The shared row, made by the first instance ever to start on the
 * database (its mode, then, is this one's): its secret names workspaces for
 * all. Returns the secret and the shared mode.
 */
async function prepareState(pool: pg.Pool, mode: Mode, claimMode: boolean): Promise<{ secret: string; mode: Mode }> {
  const { rows } = await pool.query<{ secret: string; mode: Mode }>(
    `INSERT INTO petstore_state (id, mode, secret) VALUES (1, $1, $2)
     ON CONFLICT (id) DO UPDATE SET mode = CASE WHEN $3 THEN EXCLUDED.mode ELSE petstore_state.mode END RETURNING secret, mode`,
    [mode, randomBytes(32).toString('hex'), claimMode],
  );
  return rows[0] as { secret: string; mode: Mode };
}

/** The mode in the database; this instance's copy, a plain field, is read again before every request (`sync`) or told as it changes. */
function sharedMode(pool: pg.Pool, initial: Mode, published: () => Promise<void>): ModeStore {
  const store: ModeStore = {
    mode: initial,
    set: async (next: Mode) => {
      await pool.query('UPDATE petstore_state SET mode = $1', [next]).catch(failed('Could not switch the mode'));
      store.mode = next;
      await published();
    },
  };
  return store;
}

/** The default key's workspace, made or found at start; if it cannot be, the start stops with a StoreError and nothing is left running. */
async function openDefault(workspaces: PgWorkspaces, key: string, pool: pg.Pool, where: string): Promise<void> {
  try {
    await workspaces.use(key, () => undefined);
  } catch (error) {
    await workspaces.close();
    await pool.end().catch(() => undefined);
    throw new StoreError(`Cannot use the PostgreSQL database at ${where}: ${(error as Error).message}`);
  }
}

/**
 * With `--open-keys`: the workspaces of keys that are not configured are
 * kept within `--open-key-workspaces` and `--open-key-ttl`; each removal (its
 * pets, items, checkpoints, journal and faults go in its transaction) is logged.
 */
function openKeyPolicy(config: Config, logger: Logger, remove: boolean, forgetItems: (id: string) => void): Pick<PgWorkspacesOptions, 'openKeys'> {
  if (!config.openKeys) return {};
  const why = { cap: `beyond --open-key-workspaces ${config.openKeyWorkspaces}`, ttl: `unused for --open-key-ttl ${config.openKeyTtlMs / 1000} s` };
  const openKeys = {
    configured: config.apiKeys,
    remove,
    max: config.openKeyWorkspaces,
    ttlMs: config.openKeyTtlMs,
    onRemoved: (id: string, reason: RemovalReason) => {
      forgetItems(id);
      logger.info(`Removed the workspace ${id} of an open key from the database (${why[reason]})`, { workspace: id, reason });
    },
    warn: (message: string) => logger.warn(message),
  };
  return { openKeys };
}

/** The schema brought up to date and the shared row read; on any failure the pool is closed and a StoreError names the host. */
async function startUp(pool: pg.Pool, where: string, prepare: () => Promise<{ secret: string; mode: Mode }>): Promise<{ secret: string; mode: Mode }> {
  try {
    await migrate(pool);
    return await prepare();
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw new StoreError(`Cannot use the PostgreSQL database at ${where}: ${(error as Error).message || String(error)}`);
  }
}

/**
 * A workspace found gone from the database (an open key's, removed through
 * another instance): this instance's copies of its pets go. Not its items:
 * a workspace used only through a spec's items has no row of pets, so it is
 * never found here, and an item space finds its own row gone at its next use.
 */
function forgetGone(id: string, workspaces: PgWorkspaces): void {
  workspaces.forget(id);
}

/** The shared journal; its live tails hear of other instances' writes as `--database-pooler` allows (pooler.ts). */
function openJournal(pool: pg.Pool, config: Config, url: string, checkResponse: ResponseCheck, onError: (error: unknown) => void): PgJournal {
  return new PgJournal(pool, config.journalSize, config.journalMemory, checkResponse, onError, tailSource(config, url));
}

/** Where this instance can LISTEN, if anywhere. */
const listenUrlOf = (source: TailSource): string | undefined => ('listenUrl' in source ? source.listenUrl : undefined);

/**
 * How this instance's copies (the mode, the faults, the kept reads) stay
 * current: told of every change as it commits, where it can listen
 * (CacheCoherence), else read before each request (StateReader), as they
 * are while the session is being made or after it broke.
 */
function currentCopies(
  pool: pg.Pool,
  listenUrl: string | undefined,
  { workspaces, mode, faults }: { workspaces: PgWorkspaces; mode: ModeStore; faults: PgFaults },
  logger: Logger,
  where: string,
): { coherence: CacheCoherence; sync: (id?: string) => MaybePromise<void> } {
  const state = new StateReader(pool, async (read) => {
    mode.mode = read.mode;
    for (const [id, version] of read.versions) workspaces.cache.observe(id, version);
    for (const id of read.missing) forgetGone(id, workspaces);
    await faults.refresh(read.faultsVersion);
  });
  const coherence = new CacheCoherence(pool, listenUrl, {
    version: (id, version) => workspaces.cache.observe(id, version),
    gone: (id) => forgetGone(id, workspaces),
    state: async (shared, faultsVersion) => {
      mode.mode = shared;
      await faults.refresh(faultsVersion);
    },
    rejoin: async () => {
      workspaces.cache.reset();
      await state.sync();
    },
    onError: (error) =>
      logger.warn(`Reads are asked of PostgreSQL at ${where} before each request until it is heard from again: ${(error as Error).message || String(error)}`),
  });
  const sync = (id?: string) => {
    if (!coherence.fresh()) return state.sync(id);
    if (id !== undefined) state.used(id);
    return undefined;
  };
  return { coherence, sync };
}

/**
 * The shared backend: workspaces, journal, faults and mode in one
 * PostgreSQL database, so any number of instances serve as one. Start-up
 * connects, migrates the schema under an advisory lock and reads the
 * shared mode (setting it when `claimMode`); a database out of reach or a bad URL stops it with a
 * StoreError naming the host (never the password). The items are made
 * before the workspaces, whose removals forget their spaces.
 */
export async function openPostgresBackend({
  config,
  url,
  logger,
  checkResponse,
  operations,
  claimMode = config.modeGiven,
  removeOpenKeys = true,
  keepReads = true,
}: PostgresBackendOptions): Promise<Backend> {
  const where = describeTarget(url);
  await loadPg();
  const onIdleError = (error: Error) => logger.error(`PostgreSQL at ${where}: ${error.message}`);
  const pool = createPool({ url, size: config.pgPoolSize, pooler: config.databasePooler, onIdleError });
  const { secret, mode: initialMode } = await startUp(pool, where, () => prepareState(pool, config.mode, claimMode));
  const items = byWorkspaceId(createPgItemStore({ pool, idOf: (key) => workspaces.idOf(key) }), (key) => workspaces.idOf(key));
  const workspaces = new PgWorkspaces({
    pool,
    secret,
    quota: { pets: config.quotaPets, bytes: config.quotaBytes },
    seed: { seed: config.seed, count: config.count },
    maxOpen: config.maxWorkspaces,
    cacheBytes: READ_CACHE_BYTES,
    published: () => coherence.published(),
    ...openKeyPolicy(config, logger, removeOpenKeys, (id) => items.forget(id)),
  });
  const mode = sharedMode(pool, initialMode, () => coherence.published());
  const faults = new PgFaults(
    pool,
    operations,
    (key) => workspaces.idOf(key),
    () => coherence.published(),
  );
  const { coherence, sync } = currentCopies(pool, keepReads ? listenUrlOf(tailSource(config, url)) : undefined, { workspaces, mode, faults }, logger, where);
  const journal = openJournal(pool, config, url, checkResponse, (error) =>
    logger.error(`Journal entries were dropped or not shown: PostgreSQL at ${where} failed`, error),
  );
  await openDefault(workspaces, config.apiKeys[0] as string, pool, where);
  coherence.start();
  return {
    kind: 'postgres',
    workspaces,
    journal,
    faults,
    mode,
    checkpoints: new PgCheckpoints(pool, { count: config.checkpointCount, bytes: config.checkpointBytes }),
    items,
    sync: (key?: string) => sync(key === undefined ? undefined : workspaces.idOf(key)),
    health: async () => {
      await pool.query('SELECT 1').catch(failed('The database cannot be reached'));
    },
    close: async () => {
      await items.close();
      await workspaces.close();
      await journal.close();
      await coherence.close();
      await pool.end();
    },
  };
}
