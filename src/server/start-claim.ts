import { createServer } from 'node:net';
import { acquireLock, type DataLock } from '../store/file/lock.js';
import { startFootprint } from '../store/file/start-footprint.js';

/**
 * Whether `port` can be listened on at `host`, tried before a start writes
 * anything: a busy port is refused with the error `listen` would throw
 * (EADDRINUSE) before a data file is seeded or a database's schema made.
 * Port 0 (any free one) always can. The port is let go at once; a process
 * that takes it in the moment between meets the start's own `listen`,
 * whose failure is undone as any other (`DataClaim.abandon`).
 */
export function probePort(port: number, host: string): Promise<void> {
  if (port === 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve()));
  });
}

/** A data file claimed for a start: its lock, and what undoes the start should it fail. */
export interface DataClaim {
  lock: DataLock;
  /**
   * The start failed: what it added beside the data file is removed (under
   * the lock), the lock released, then the data folder if the start made
   * it. Never throws: the error to report is the start's.
   */
  abandon(): Promise<void>;
}

/**
 * Claims `dataFile` for a start: its folder checked (a ConfigError when
 * the folder's parent does not exist), what is beside it noted, then its
 * lock taken.
 */
export async function claimDataFile(dataFile: string, holder: string): Promise<DataClaim> {
  const footprint = await startFootprint(dataFile);
  let lock: DataLock;
  try {
    lock = await acquireLock(dataFile, holder);
  } catch (error) {
    // The lock may have made the data folder before it failed.
    await footprint.removeFolder();
    throw error;
  }
  return {
    lock,
    async abandon() {
      await footprint.undo().catch(() => undefined);
      lock.release();
      await footprint.removeFolder();
    },
  };
}
