import type { FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import { crc32 } from 'node:zlib';
import { parseJson, stringifyJson } from '../../kernel/json.js';
import { buildPet, idAt, takeIds, type PendingCreate } from '../rules.js';
import { folderState, openForWrite, syncDir, type FolderState } from './durable-entries.js';
import type { Line } from './file-io.js';

/** Writes all of `data` at `position`; a short write is continued, never ignored. */
export async function writeAll(handle: FileHandle, data: Buffer, position: number): Promise<void> {
  let done = 0;
  while (done < data.length) {
    const { bytesWritten } = await handle.write(data, done, data.length - done, position + done);
    // A write that makes no progress would loop for ever; the system reports no error for it.
    if (bytesWritten <= 0) throw Object.assign(new Error('The file system accepted no more bytes'), { code: 'ENOSPC' });
    done += bytesWritten;
  }
}
/**
 * How creates reach the disk: the commit log beside a data file
 * (`db.json.log`), the batches of records appended to it (`encodeBatch`),
 * and the group commit that makes those batches (`WriteQueue`): creates
 * waiting together go as one append and one `fdatasync`. Start-up reads the
 * log back (`recover.ts`).
 *
 * One record per line, `<crc32 hex> <byte length> <json>\n`. A record
 * counts only when its length and checksum match and its newline is there,
 * so a write torn by a crash or a full disk is recognised as such.
 *
 * Appends write at the log's own offset, every byte or an error, then
 * `fdatasync`. A failed append is cut off again before the next one; until
 * that succeeds the log refuses appends, so nothing follows a torn record.
 */
export class CommitLog {
  private handle: FileHandle | undefined;
  /** The log's folder: synced again before an append while its last sync failed (the log's creation, a snapshot's rename). */
  private readonly folder: FolderState;

  /**
   * The log in `file`, whose last good record ends at `end` (where the next
   * append goes); `dirty` when bytes past it may exist (a failed append, a
   * bad tail start-up could not cut yet).
   */
  constructor(
    readonly file: string,
    private end = 0,
    private dirty = false,
  ) {
    this.folder = folderState(dirname(file));
  }

  /** Appends encoded records (see `encodeRecord`) durably: resolves once they are on disk. */
  async append(records: string): Promise<void> {
    const handle = this.handle ?? (await this.openHandle());
    if (this.dirty) await this.cut(handle);
    // Nothing more is acknowledged in a folder whose last sync failed until it syncs.
    if (this.folder.unsynced) await syncDir(this.folder.dir);
    const data = Buffer.from(records);
    try {
      await writeAll(handle, data, this.end);
      await handle.datasync();
    } catch (error) {
      this.dirty = true;
      // Cut the torn bytes now if the disk lets us; else before the next append.
      await this.cut(handle).catch(() => undefined);
      throw error;
    }
    this.end += data.length;
  }

  /** Empties the log (its records are in the snapshot now). */
  async clear(): Promise<void> {
    const handle = await this.openHandle();
    await handle.truncate(0);
    await handle.datasync();
    this.end = 0;
    this.dirty = false;
  }

  /** Whether the log holds records. */
  get empty(): boolean {
    return this.end === 0;
  }

  /** Releases the file descriptor; the next append opens the log again. */
  async close(): Promise<void> {
    const handle = this.handle;
    this.handle = undefined;
    await handle?.close();
  }

  /** Cuts what follows the last good record now (a bad tail, once kept aside); until then every append cuts it first. */
  async cutTail(): Promise<void> {
    await this.cut(this.handle ?? (await this.openHandle()));
  }

  private async openHandle(): Promise<FileHandle> {
    if (this.handle) return this.handle;
    // A new log's folder entry is durable before the first record is, or a power cut could lose the whole file.
    this.handle = await openForWrite(this.file);
    return this.handle;
  }

  private async cut(handle: FileHandle): Promise<void> {
    await handle.truncate(this.end);
    await handle.datasync();
    this.dirty = false;
  }
}

/** One record as a log line. `json` is a JSON text (it has no raw newline). */
export function encodeRecord(json: string): string {
  return `${crc32(json).toString(16).padStart(8, '0')} ${Buffer.byteLength(json)} ${json}\n`;
}

const SPACE = 0x20;

/** A log line's record (`encodeRecord`), or undefined when the line is torn or corrupt. */
export function decodeRecord(line: Line): { value: unknown } | undefined {
  if (!line.complete) return undefined;
  const bytes = line.bytes;
  const first = bytes.indexOf(SPACE);
  const second = first === 8 ? bytes.indexOf(SPACE, 9) : -1;
  if (second === -1) return undefined;
  const crc = Number.parseInt(bytes.toString('latin1', 0, 8), 16);
  const length = Number(bytes.toString('latin1', 9, second));
  const json = bytes.subarray(second + 1);
  if (!/^[0-9a-f]{8}$/.test(bytes.toString('latin1', 0, 8)) || json.length !== length || crc32(json) !== crc) return undefined;
  return parse(json);
}

function parse(json: Buffer): { value: unknown } | undefined {
  try {
    return { value: parseJson(json.toString('utf8')) };
  } catch {
    return undefined;
  }
}

/**
 * A batch of creates as commit-log records: the ids the batch takes from
 * `firstId` (`takeIds`), in order. A pet whose provisional id is not the one
 * it gets (an earlier batch failed, and its ids were never given) is rebuilt
 * with the right one. Returns the records and the next id after them.
 */
export function encodeBatch(items: PendingCreate[], epoch: number, firstId: number): { text: string; nextId: number } {
  const ids = takeIds(firstId, items.length);
  let text = '';
  for (const [i, item] of items.entries()) {
    const id = idAt(ids.first, i);
    if (item.pet.id !== id) {
      item.pet = buildPet(id, item.input);
      item.json = stringifyJson(item.pet);
    }
    text += encodeRecord(`{"e":${epoch},"pet":${item.json}}`);
  }
  return { text, nextId: ids.after };
}

interface Deferred<R> {
  resolve(value: R): void;
  reject(error: unknown): void;
}

type Job<T, R> = ({ item: T } & Deferred<R>) | ({ task: () => Promise<unknown> } & Deferred<unknown>);

/**
 * Group commit: writes run one at a time, in the order they were asked for.
 * Items waiting together are committed as one batch (one disk write and one
 * sync for all of them), up to `maxBatchBytes`; a task (a reset, a
 * compaction) runs alone, between batches. A batch that fails rejects every
 * item of it and nothing else.
 */
export class WriteQueue<T, R> {
  private jobs: Job<T, R>[] = [];
  private running: Promise<void> | undefined;

  constructor(
    private readonly commit: (items: T[]) => Promise<R[]>,
    private readonly sizeOf: (item: T) => number,
    private readonly maxBatchBytes = 8 * 1024 * 1024,
  ) {}

  /** Resolves with the item's result once its batch is committed. */
  add(item: T): Promise<R> {
    return new Promise<R>((resolve, reject) => this.push({ item, resolve, reject }));
  }

  /** Runs `task` alone, after everything asked for before it. */
  exclusive<V>(task: () => Promise<V>): Promise<V> {
    return new Promise<V>((resolve, reject) => this.push({ task, resolve: resolve as (value: unknown) => void, reject }));
  }

  /** Whether anything is waiting or running. */
  get busy(): boolean {
    return this.running !== undefined;
  }

  /** Resolves when everything asked for so far has run. */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  private push(job: Job<T, R>): void {
    this.jobs.push(job);
    this.running ??= this.drain();
  }

  private async drain(): Promise<void> {
    try {
      while (this.jobs.length > 0) {
        const first = this.jobs[0] as Job<T, R>;
        if ('task' in first) {
          this.jobs.shift();
          await Promise.resolve().then(first.task).then(first.resolve, first.reject);
        } else {
          await this.runBatch(this.takeBatch());
        }
      }
    } finally {
      this.running = undefined;
    }
  }

  private takeBatch(): ({ item: T } & Deferred<R>)[] {
    const batch: ({ item: T } & Deferred<R>)[] = [];
    let bytes = 0;
    for (const job of this.jobs) {
      if ('task' in job || (batch.length > 0 && bytes + this.sizeOf(job.item) > this.maxBatchBytes)) break;
      bytes += this.sizeOf(job.item);
      batch.push(job);
    }
    this.jobs.splice(0, batch.length);
    return batch;
  }

  private async runBatch(batch: ({ item: T } & Deferred<R>)[]): Promise<void> {
    try {
      const results = await this.commit(batch.map((job) => job.item));
      batch.forEach((job, i) => job.resolve(results[i] as R));
    } catch (error) {
      for (const job of batch) job.reject(error);
    }
  }
}
