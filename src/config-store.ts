import { resolve } from 'node:path';

/** Where the sandbox keeps its state: a lowdb data file (the default) or a PostgreSQL database. */
export interface StoreConfig {
  /** The lowdb data file (`--store <file>` or `--data`); with PostgreSQL, where QA commands on files would look. */
  readonly dataFile: string;
  /** `--store postgres://...`: every instance on this database serves as one sandbox. */
  readonly postgresUrl: string | undefined;
  /** Connections to PostgreSQL per process at most. Default 10. */
  readonly pgPoolSize: number;
}

/** The options of StoreConfig: flag, environment variable, default, help. */
export const STORE_OPTIONS = {
  store: { env: 'PETSTORE_STORE', default: '', help: 'a lowdb data file (as --data) or postgres://user:password@host:port/database' },
  'pg-pool-size': { env: 'PETSTORE_PG_POOL_SIZE', default: '10', help: 'connections to PostgreSQL per process at most' },
} as const;

/** Whether `--store` names a PostgreSQL database rather than a data file. */
export const isPostgresUrl = (store: string): boolean => /^postgres(ql)?:\/\//i.test(store);

/** The store options read: `--store` wins over `--data`. */
export function storeConfigOf(
  get: (name: keyof typeof STORE_OPTIONS | 'data') => string,
  integer: (name: string, raw: string, min: number, max: number) => number,
): StoreConfig {
  const store = get('store').trim();
  const postgresUrl = isPostgresUrl(store) ? store : undefined;
  return {
    dataFile: resolve(store && !postgresUrl ? store : get('data')),
    postgresUrl,
    pgPoolSize: integer('pg-pool-size', get('pg-pool-size'), 1, 1000),
  };
}
