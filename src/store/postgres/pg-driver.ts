import type pg from 'pg';
import { importPeer } from '../../config/optional-peers.js';

let driver: typeof pg | undefined;

/**
 * `pg`, loaded when the first PostgreSQL store opens: an optional peer
 * dependency, which a sandbox on a data file or in memory never loads. Not
 * installed, a MissingPeerError (a ConfigError) names the npm command.
 */
export async function loadPg(): Promise<typeof pg> {
  driver ??= (await importPeer(['pg'], 'A PostgreSQL store (a postgres:// store URL)', () => import('pg'))).default;
  return driver;
}

/** `pg`, once `loadPg` has loaded it: every pool and client is made after the store's opening awaited it. */
export function pgDriver(): typeof pg {
  if (driver === undefined) throw new Error('pg was used before loadPg() loaded it');
  return driver;
}
