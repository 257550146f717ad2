/** Where the sandbox keeps its state: a lowdb data file (the default), a PostgreSQL database, or this process's memory. */
export interface StoreConfig {
  /** The lowdb data file (`--store <file>` or `--data`); with PostgreSQL, where QA commands on files would look. */
  readonly dataFile: string;
  /** `--store postgres://...`: every instance on this database serves as one sandbox. */
  readonly postgresUrl: string | undefined;
  /** `--store memory`: everything in this process only, nothing written to disk; gone when the process stops. */
  readonly memory: boolean;
  /** Connections to PostgreSQL per process at most. Default 10. */
  readonly pgPoolSize: number;
}

/** The options of StoreConfig: flag, environment variable, default, help. */
export const STORE_OPTIONS = {
  store: {
    env: 'PETSTORE_STORE',
    default: '',
    help: "a lowdb data file (as --data), postgres://user:password@host:port/database, or 'memory' (nothing written to disk)",
  },
  'pg-pool-size': { env: 'PETSTORE_PG_POOL_SIZE', default: '10', help: 'connections to PostgreSQL per process at most' },
} as const;

/** Whether `--store` names a PostgreSQL database rather than a data file. */
export const isPostgresUrl = (store: string): boolean => /^postgres(ql)?:\/\//i.test(store);

/** `--store memory`: the store kept in this process only. */
export const MEMORY_STORE = 'memory';

/** The store options read: `--store` wins over `--data`. */
export function storeConfigOf(
  get: (name: keyof typeof STORE_OPTIONS | 'data') => string,
  integer: (name: string, raw: string, min: number, max: number) => number,
  resolve: (path: string) => string,
): StoreConfig {
  const store = get('store').trim();
  const postgresUrl = isPostgresUrl(store) ? store : undefined;
  const memory = store === MEMORY_STORE;
  return {
    dataFile: resolve(store && !postgresUrl && !memory ? store : get('data')),
    postgresUrl,
    memory,
    pgPoolSize: integer('pg-pool-size', get('pg-pool-size'), 1, 1000),
  };
}
