/**
 * What a pooler in transaction mode (`--database-pooler transaction`, such as
 * PgBouncer's `pool_mode = transaction`) changes. Such a pooler hands each
 * transaction whichever server connection is free, so nothing may outlive a
 * transaction: a statement prepared by name is found missing on the next
 * connection (or already there when another client prepared it), and a
 * LISTEN hears nothing once its transaction ends. So every query goes
 * unnamed (parsed and planned each time), and the live journal listens on a
 * direct connection (`--database-listen-url`) or, without one, reads the
 * journal table every TAIL_POLL_MS.
 */
import type pg from 'pg';
import type { StoreConfig } from '../../config/store.js';

/** How often the live journal reads other instances' entries when it cannot listen, ms. */
export const TAIL_POLL_MS = 250;

/** How this instance's live tails learn of other instances' journal writes: LISTEN on a connection to `listenUrl`, or reads every `pollMs`. */
export type TailSource = { listenUrl: string } | { pollMs: number };

type Pooling = Pick<StoreConfig, 'databasePooler' | 'databaseListenUrl'>;

/** Where the live tails hear of other instances' writes: the listen URL, else the store's own URL in session mode; polling otherwise. */
export function tailSource(config: Pooling, url: string): TailSource {
  if (config.databaseListenUrl !== undefined) return { listenUrl: config.databaseListenUrl };
  return config.databasePooler === 'session' ? { listenUrl: url } : { pollMs: TAIL_POLL_MS };
}

/** What the start-up lines add about the pooler: nothing in session mode. */
export function poolerNotes(config: Pooling): string[] {
  if (config.databasePooler === 'session') return [];
  const tail =
    config.databaseListenUrl === undefined ?
      `the live journal reads other instances' requests every ${TAIL_POLL_MS} ms (no --database-listen-url to LISTEN on)`
    : 'the live journal listens on --database-listen-url';
  return [`pooler:    transaction mode, statements unnamed; ${tail}`];
}

/** A query's config without its `name`: a plain object copied, a string or a submittable (a cursor) as it is. */
function unnamed(config: unknown): unknown {
  if (config === null || typeof config !== 'object' || !('name' in config) || 'submit' in config) return config;
  return { ...config, name: undefined };
}

/**
 * The driver's Client whose every query is sent unnamed, whatever its
 * config says: the pool's Client in transaction mode, so that no statement
 * of the store, nor any added later, is prepared across transactions.
 */
export function unnamedClient(driver: typeof pg): typeof pg.Client {
  class UnnamedClient extends driver.Client {}
  Object.defineProperty(UnnamedClient.prototype, 'query', {
    value: function (this: pg.Client, config: unknown, ...rest: unknown[]): unknown {
      const query = driver.Client.prototype.query as (this: pg.Client, ...args: unknown[]) => unknown;
      return query.call(this, unnamed(config), ...rest);
    },
    writable: true,
    configurable: true,
  });
  return UnnamedClient;
}
