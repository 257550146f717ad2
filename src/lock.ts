import { readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';

/** What a running sandbox leaves beside its data file, so the CLI can find it. */
export interface ServerLock {
  pid: number;
  origin: string;
}

export const lockFileOf = (dataFile: string) => `${dataFile}.lock`;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The sandbox serving `dataFile`, if one runs (a lock of a dead process is stale and ignored). */
export function runningServer(dataFile: string): ServerLock | undefined {
  try {
    const lock = JSON.parse(readFileSync(lockFileOf(dataFile), 'utf8')) as ServerLock;
    return Number.isInteger(lock.pid) && lock.pid !== process.pid && alive(lock.pid) ? lock : undefined;
  } catch {
    return undefined;
  }
}

/** Claims `dataFile` for this process; throws if another live sandbox serves it. */
export function acquireLock(dataFile: string, origin: string): () => void {
  const other = runningServer(dataFile);
  if (other) throw new Error(`${dataFile} is already served by process ${other.pid} at ${other.origin}; two servers on one data file would overwrite each other.`);
  mkdirSync(dirname(dataFile), { recursive: true });
  writeFileSync(lockFileOf(dataFile), `${JSON.stringify({ pid: process.pid, origin })}\n`);
  return () => rmSync(lockFileOf(dataFile), { force: true });
}
