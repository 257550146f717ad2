import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { Low } from 'lowdb';
import { CommitLog, decodeRecord } from './commit-log.js';
import { createFile, renameFile } from './durable-entries.js';
import { DurableJsonFile } from './durable-file.js';
import { readLines } from './file-io.js';
import { StoreError, storageFailure } from '../../kernel/store-errors.js';
import { idAfter } from '../rules.js';
import { seededGeneration } from '../load-rules.js';
import type { Pet, StoreData } from '../types.js';

/** What `recoverFiles` needs to know of a store. */
export interface RecoverOptions {
  /** The lowdb snapshot file; its commit log lives beside it as `<file>.log`. */
  file: string;
  /** Seeds a store whose file does not exist yet. */
  seed: { seed: number; count: number };
  /** Validates each stored pet on open (the spec's Pet schema); returns problems. */
  checkPet?: (pet: unknown) => string[];
  /** Hears what the store repaired or could not do in the background. */
  warn?: (message: string) => void;
}

/**
 * A store's files brought to a consistent state: the snapshot read (or, when
 * there is none, seeded and written), every log record of its generation
 * replayed on top, a torn log tail cut. Returns the lowdb database holding
 * the committed data, the log ready to append, and how many records it holds.
 */
export async function recoverFiles(options: RecoverOptions): Promise<{ db: Low<StoreData>; log: CommitLog; replayed: number }> {
  const warn = options.warn ?? (() => undefined);
  const logFile = `${options.file}.log`;
  const adapter = new DurableJsonFile(options.file);
  const db = new Low<StoreData>(adapter, { format: 1, epoch: 0, nextId: 1, pets: [] });
  const existing = await adapter.read();
  if (!existing) {
    await setAsideOrphanLog(logFile, warn);
    const seeded = seededGeneration(options.seed);
    db.data = { format: 1, epoch: 0, nextId: seeded.nextId, pets: seeded.pets };
    await adapter.write(db.data).catch((error: unknown) => {
      throw storageFailure(error, `Cannot create the data file ${options.file}`);
    });
    return { db, log: await openCommitLog(logFile, () => true, warn), replayed: 0 };
  }
  db.data = existing;
  checkRecords(options.file, existing, options.checkPet);
  let replayed = 0;
  const apply = (record: unknown) => {
    const applied = replay(existing, record);
    replayed += applied;
    return applied > 0;
  };
  const log = await openCommitLog(logFile, apply, warn).catch((error: unknown) => {
    throw error instanceof StoreError ? error : new StoreError(`Cannot read the commit log ${logFile}: ${(error as Error).message}`);
  });
  return { db, log, replayed };
}

/** Applies one log record to the snapshot's data; false for a record that is not one of the store's. */
function replay(data: StoreData, record: unknown): number {
  const { e, pet } = (record ?? {}) as { e?: unknown; pet?: Pet };
  if (!Number.isSafeInteger(e) || !pet || typeof pet !== 'object' || !Number.isSafeInteger(pet.id)) return 0;
  if (e !== data.epoch || pet.id < data.nextId) return 1;
  data.pets.push(pet);
  data.nextId = idAfter(pet.id);
  return 1;
}

function checkRecords(file: string, data: StoreData, checkPet: RecoverOptions['checkPet']): void {
  const seen = new Set<number>();
  let sorted = true;
  for (const [i, pet] of data.pets.entries()) {
    const problems = checkPet?.(pet) ?? [];
    if (problems.length > 0) throw new StoreError(`Data file ${file}: pet at index ${i} is invalid: ${problems.join(' ')}`);
    if (seen.has(pet.id)) throw new StoreError(`Data file ${file}: duplicate pet id ${pet.id} at index ${i}`);
    if (i > 0 && pet.id < (data.pets[i - 1]?.id ?? 0)) sorted = false;
    seen.add(pet.id);
  }
  if (!sorted) data.pets.sort((a, b) => a.id - b.id);
}

/** A log without its data file belongs to no data: moved aside, never replayed into fresh pets. */
async function setAsideOrphanLog(logFile: string, warn: (message: string) => void): Promise<void> {
  const found = await stat(logFile).then(
    () => true,
    () => false,
  );
  if (!found) return;
  const aside = `${logFile}.discarded-${new Date().toISOString().replaceAll(':', '-')}`;
  await renameFile(logFile, aside).catch((error: unknown) => {
    throw storageFailure(error, `Cannot move aside ${logFile}, whose data file is missing`);
  });
  warn(`${logFile} had no data file beside it; moved it to ${aside} and started fresh data.`);
}

/**
 * Reads a store's commit log (if any) record by record, hands each record
 * to `replay` (which returns false for a record that is not one of the
 * store's: the log is bad from there on), and cuts a bad tail.
 *
 * Records are read until the first bad one and the log is cut there before
 * anything appends (SQLite and PostgreSQL stop replay the same way; Redis's
 * `aof-load-truncated`): an append never lands after garbage that would hide
 * it from the next start. The cut bytes are kept aside in
 * `<log>.discarded-<time>`, never silently destroyed; `warn` hears about
 * them. A tail that cannot be cut now (read-only storage) is cut before the
 * first append. A bad record with whole records after it is damage, not a
 * torn write (the log never appends after a bad record): start-up stops and
 * the log is left untouched.
 */
export async function openCommitLog(file: string, replay: (record: unknown) => boolean, warn: (message: string) => void): Promise<CommitLog> {
  const size = await stat(file).then(
    (s) => s.size,
    (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return -1;
      throw error;
    },
  );
  if (size < 0) return new CommitLog(file);
  let end = 0;
  let bad: number | undefined;
  let lineNumber = 0;
  for await (const line of readLines(file)) {
    lineNumber += 1;
    const record = decodeRecord(line);
    if (bad === undefined) {
      if (record !== undefined && replay(record.value)) end = line.offset + line.bytes.length + 1;
      else bad = lineNumber;
    } else if (record !== undefined) {
      // Whole records after a bad one: not a write cut short (nothing is appended after one), but damage.
      throw new StoreError(
        `Commit log ${file} is corrupt at line ${bad}: whole records follow it, so it is not a write cut short by a crash. It was left untouched; restore it from a backup, or move it away to start from ${basename(file, '.log')} alone.`,
      );
    }
  }
  const log = new CommitLog(file, end, end < size);
  if (end < size) await setAside(log, end, size, warn);
  return log;
}

/** Copies the bad tail (from `end` to `size`) aside, then cuts it; either may fail on read-only storage (then the log cuts it before its first append). */
async function setAside(log: CommitLog, end: number, size: number, warn: (message: string) => void): Promise<void> {
  const aside = `${log.file}.discarded-${new Date().toISOString().replaceAll(':', '-')}`;
  try {
    // Synced with its folder before the log is cut: the bytes are kept through a power cut too.
    await createFile(aside, createReadStream(log.file, { start: end }) as AsyncIterable<Buffer>);
    await log.cutTail();
    warn(
      `${log.file}: the last ${size - end} bytes are not a whole record (a write cut short by a crash or a full disk); they were never acknowledged. Moved them to ${aside} and cut the log after the last good record.`,
    );
  } catch (error) {
    warn(
      `${log.file}: the last ${size - end} bytes are not a whole record, and cannot be cut yet (${(error as Error).message}). They are ignored; writes will be refused until they can be cut.`,
    );
  }
}
