/** Where the sandbox keeps its state: a lowdb data file (the default), a PostgreSQL database, or this process's memory. */
import { ConfigError } from './error.js';

/** How the connections of `--store postgres://...` reach the database (docs/postgres.md). */
export const DATABASE_POOLERS = ['session', 'transaction'] as const;
export type DatabasePooler = (typeof DATABASE_POOLERS)[number];

export interface StoreConfig {
  /** The lowdb data file (`--store <file>` or `--data`); with PostgreSQL, where QA commands on files would look. */
  readonly dataFile: string;
  /** `--store postgres://...`: every instance on this database serves as one sandbox. */
  readonly postgresUrl: string | undefined;
  /** `--store memory`: everything in this process only, nothing written to disk; gone when the process stops. */
  readonly memory: boolean;
  /** Connections to PostgreSQL per process at most. Default 10. */
  readonly pgPoolSize: number;
  /**
   * `session`: each connection is a session of its own (PostgreSQL itself, or a pooler in session mode): statements
   * are prepared once per connection. `transaction`: a pooler in transaction mode (PgBouncer) hands each transaction
   * any server connection: no statement is prepared by name and nothing relies on a session. Default `session`.
   */
  readonly databasePooler: DatabasePooler;
  /** A direct connection's URL for LISTEN (the live journal): a pooler in transaction mode cannot hold one. Default none. */
  readonly databaseListenUrl: string | undefined;
}

/** The options of StoreConfig: flag, environment variable, default, help. */
export const STORE_OPTIONS = {
  store: {
    env: 'PETSTORE_STORE',
    default: '',
    help: "a lowdb data file (as --data), postgres://user:password@host:port/database, or 'memory' (nothing written to disk)",
  },
  'pg-pool-size': { env: 'PETSTORE_PG_POOL_SIZE', default: '10', help: 'connections to PostgreSQL per process at most' },
  'database-pooler': {
    env: 'PETSTORE_DATABASE_POOLER',
    default: 'session',
    help: 'session | transaction: transaction for a pooler in transaction mode (PgBouncer), no prepared statements',
  },
  'database-listen-url': {
    env: 'PETSTORE_DATABASE_LISTEN_URL',
    default: '',
    help: "postgres:// URL of a direct connection for the live journal's LISTEN (with --database-pooler transaction)",
  },
} as const;

/** Whether `--store` names a PostgreSQL database rather than a data file. */
export const isPostgresUrl = (store: string): boolean => /^postgres(ql)?:\/\//i.test(store);

/** `--store memory`: the store kept in this process only. */
export const MEMORY_STORE = 'memory';

/** `--database-pooler` and `--database-listen-url` read; a wrong value is refused by the name it was given under. */
function poolerOf(
  get: (name: keyof typeof STORE_OPTIONS) => string,
  describe: (name: string) => string,
): Pick<StoreConfig, 'databasePooler' | 'databaseListenUrl'> {
  const pooler = get('database-pooler').trim().toLowerCase();
  if (!(DATABASE_POOLERS as readonly string[]).includes(pooler))
    throw new ConfigError(`${describe('database-pooler')} must be one of ${DATABASE_POOLERS.join(', ')}, got '${get('database-pooler')}'`);
  const listen = get('database-listen-url').trim();
  // Not repeated: a URL may hold a password.
  if (listen && !isPostgresUrl(listen))
    throw new ConfigError(`${describe('database-listen-url')} must be a URL such as postgres://user:password@host:5432/database`);
  return { databasePooler: pooler as DatabasePooler, databaseListenUrl: listen || undefined };
}

/** The store options read: `--store` wins over `--data`. */
export function storeConfigOf(
  get: (name: keyof typeof STORE_OPTIONS | 'data') => string,
  integer: (name: string, raw: string, min: number, max: number) => number,
  resolve: (path: string) => string,
  describe: (name: string) => string,
): StoreConfig {
  const store = get('store').trim();
  const postgresUrl = isPostgresUrl(store) ? store : undefined;
  const memory = store === MEMORY_STORE;
  return {
    dataFile: resolve(store && !postgresUrl && !memory ? store : get('data')),
    postgresUrl,
    memory,
    pgPoolSize: integer('pg-pool-size', get('pg-pool-size'), 1, 1000),
    ...poolerOf(get, describe),
  };
}
