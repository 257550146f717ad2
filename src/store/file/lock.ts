import { randomUUID } from 'node:crypto';
import { readFileSync, unlinkSync } from 'node:fs';
import { link, readFile, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { ensureDir } from './durable-entries.js';

/**
 * What `db.json.lock` holds. Created whole (written aside, then hard-linked
 * to its name, which fails if it exists), so it is never seen empty.
 */
export interface LockRecord {
  pid: number;
  /** Random per acquisition: tells this lock from an earlier one of the same pid. */
  nonce?: string;
  /** What holds the data file: `sandbox`, or a QA command such as `reset`. */
  holder?: string;
  /** The sandbox's URL, written once it listens: how the QA commands find it. */
  origin?: string;
}

/** A lock held by this process. */
export interface DataLock {
  readonly file: string;
  /** Why the data file could not be locked (storage refused the lock file), when it was not. */
  readonly unlocked?: string;
  /** Records where the sandbox listens (atomically: temp file, rename). */
  setOrigin(origin: string): Promise<void>;
  /** Removes the lock if it is still this one. Never throws: a lock left behind is stale once this process is gone. */
  release(): void;
}

export const lockFileOf = (dataFile: string) => `${dataFile}.lock`;

/** The data file cannot be claimed: the sandbox exits 1 with the message, a QA command fails. */
export class LockError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LockError';
  }
}

/** Another live process holds the data file. */
export class LockedError extends LockError {
  constructor(
    readonly dataFile: string,
    readonly holder: LockRecord,
  ) {
    const by =
      holder.origin ? `already served by process ${holder.pid} at ${holder.origin}`
      : holder.holder && holder.holder !== 'sandbox' ? `in use by process ${holder.pid} (the QA command '${holder.holder}')`
      : `in use by process ${holder.pid} (a sandbox starting up)`;
    super(`${dataFile} is ${by}; two processes on one data file would overwrite each other.`);
  }
}

/** Nonces of the locks this process holds: its own pid is alive, but only these locks are its. */
const held = new Set<string>();

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Whether the lock's process still runs (a lock of a dead process, or unreadable, is stale). */
function live(record: LockRecord): boolean {
  if (!Number.isInteger(record.pid) || record.pid <= 0) return false;
  if (record.pid === process.pid) return record.nonce !== undefined && held.has(record.nonce);
  return alive(record.pid);
}

interface Seen {
  record: LockRecord;
  /** The exact text and inode: what identifies this lock among later ones. */
  text: string;
  ino: number;
}

async function read(file: string): Promise<Seen | undefined> {
  try {
    const [text, { ino }] = await Promise.all([readFile(file, 'utf8'), stat(file)]);
    let record: LockRecord;
    try {
      record = JSON.parse(text) as LockRecord;
    } catch {
      record = { pid: 0 };
    }
    return { record, text, ino };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

const same = (a: Seen | undefined, b: Seen) => a !== undefined && a.text === b.text && a.ino === b.ino;
const ignoreMissing = (error: NodeJS.ErrnoException) => {
  if (error.code !== 'ENOENT') throw error;
};

/** Creates `file` with `record` unless it exists: written aside, then linked, so it is never seen half written. */
async function createExclusive(file: string, record: LockRecord): Promise<boolean> {
  const temp = `${file}.${randomUUID()}.tmp`;
  await writeFile(temp, `${JSON.stringify(record)}\n`, { flag: 'wx' });
  try {
    await link(temp, file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    await unlink(temp).catch(() => undefined);
  }
}

/**
 * Removes a stale lock, safely when several processes find it at once. Only
 * the holder of `<lock>.takeover` may remove a stale lock; a stale lock's own
 * process is gone, so the lock it sees cannot change until it removes it.
 * The others wait and look again.
 */
async function removeStale(file: string, stale: Seen): Promise<void> {
  const claim = `${file}.takeover`;
  const nonce = randomUUID();
  if (!(await createHeld(claim, { pid: process.pid, nonce }))) {
    const claimant = await read(claim);
    // A process died in the middle of a takeover (a window of microseconds): clear its claim.
    if (claimant && (await abandoned(claim, claimant))) await removeAside(claim, claimant);
    else await sleep(10);
    return;
  }
  try {
    if (same(await read(file), stale)) await unlink(file).catch(ignoreMissing);
  } finally {
    // The claim goes before its nonce is let go (see `abandoned`).
    await unlink(claim).catch(ignoreMissing);
    held.delete(nonce);
  }
}

/** `createExclusive` of this process's record, its nonce held from before the file exists: a claimant reading it finds it live. */
async function createHeld(file: string, record: LockRecord & { nonce: string }): Promise<boolean> {
  held.add(record.nonce);
  const created = await createExclusive(file, record).catch((error: unknown) => (held.delete(record.nonce), Promise.reject(error)));
  if (!created) held.delete(record.nonce);
  return created;
}

/**
 * Whether a takeover claim's claimant is gone. Another process's claim is
 * stable once that process is dead; one of this process is removed before
 * its nonce is let go, so it is abandoned only if still there, unchanged.
 */
async function abandoned(claim: string, seen: Seen): Promise<boolean> {
  if (seen.record.pid !== process.pid) return !live(seen.record);
  if (live(seen.record)) return false;
  return same(await read(claim), seen);
}

/**
 * Renames `file` aside, and removes it only if it is what was seen; a live
 * claim moved by mistake is put back (one of this process only while still
 * held). Only for a claim whose process died mid-takeover: should a new
 * claim appear while this one is aside, the two are not told apart.
 */
async function removeAside(file: string, seen: Seen): Promise<void> {
  const aside = `${file}.${randomUUID()}.stale`;
  try {
    await rename(file, aside);
  } catch (error) {
    return ignoreMissing(error as NodeJS.ErrnoException);
  }
  const moved = await read(aside);
  if (moved && !same(moved, seen) && live(moved.record)) await link(aside, file).catch(() => undefined);
  await unlink(aside).catch(ignoreMissing);
}

/** Storage that refuses a new file: the data may still be readable, so the lock is skipped rather than start-up refused. */
const REFUSED = new Set(['EACCES', 'EPERM', 'EROFS', 'ENOSPC', 'EDQUOT']);

/**
 * Claims `dataFile` for this process before anything opens it: creates its
 * lock exclusively, taking over a lock whose process is gone. Throws
 * LockedError if another live process holds it, LockError if the lock file
 * cannot be made. Where storage refuses new files (read-only, no permission,
 * full) and no live lock exists, returns without a lock, saying why in
 * `unlocked`: the data may still be served for reading.
 */
export async function acquireLock(dataFile: string, holder: string): Promise<DataLock> {
  const file = lockFileOf(dataFile);
  try {
    return await claim(dataFile, file, holder);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (error instanceof LockError) throw error;
    if (code === undefined || !REFUSED.has(code)) throw new LockError(`Cannot create the lock file ${file}: ${(error as Error).message}`);
    const seen = await read(file).catch(() => undefined);
    if (seen && live(seen.record)) throw new LockedError(dataFile, seen.record);
    const unlocked = `${file} could not be created (${code}), so another process on this data file would not be refused`;
    return { file, unlocked, setOrigin: () => Promise.resolve(), release: () => undefined };
  }
}

async function claim(dataFile: string, file: string, holder: string): Promise<DataLock> {
  await ensureDir(dirname(file)); // The data folder, durably; the lock file itself need not survive a power cut.
  const nonce = randomUUID();
  const mine: LockRecord = { pid: process.pid, nonce, holder };
  // Bounded: each round either creates the lock, finds a live holder or removes a stale lock.
  for (let round = 0; round < 100; round++) {
    if (await createHeld(file, { ...mine, nonce })) return heldLock(file, mine);
    const seen = await read(file);
    if (!seen) continue;
    if (live(seen.record)) throw new LockedError(dataFile, seen.record);
    await removeStale(file, seen);
  }
  throw new LockError(`Cannot take over the stale lock ${file}; remove it if no sandbox runs on ${dataFile}.`);
}

function heldLock(file: string, mine: LockRecord): DataLock {
  const nonce = mine.nonce as string;
  return {
    file,
    async setOrigin(origin) {
      const temp = `${file}.${randomUUID()}.tmp`;
      await writeFile(temp, `${JSON.stringify({ ...mine, origin })}\n`);
      await rename(temp, file);
    },
    release() {
      if (!held.delete(nonce)) return;
      try {
        if ((JSON.parse(readFileSync(file, 'utf8')) as LockRecord).nonce === nonce) unlinkSync(file);
      } catch {
        // Already gone, or storage failing at shutdown: a lock left behind is stale once this process exits.
      }
    },
  };
}

/** The sandbox serving `dataFile` and its URL, if one runs and listens. */
export function runningServer(dataFile: string): (LockRecord & { origin: string }) | undefined {
  try {
    const record = JSON.parse(readFileSync(lockFileOf(dataFile), 'utf8')) as LockRecord;
    return typeof record.origin === 'string' && live(record) ? (record as LockRecord & { origin: string }) : undefined;
  } catch {
    return undefined;
  }
}
