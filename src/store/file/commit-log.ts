import { createReadStream } from 'node:fs';
import { stat, type FileHandle } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { crc32 } from 'node:zlib';
import { parseJson } from '../../kernel/exact-json.js';
import { StoreError } from '../../kernel/store-errors.js';
import { createFile, folderState, openForWrite, syncDir, type FolderState } from './durable-entries.js';
import { readLines, writeAll, type Line } from './file-io.js';

/**
 * The commit log beside a data file (`db.json.log`): one record per line,
 * `<crc32 hex> <byte length> <json>\n`. A record counts only when its
 * length and checksum match and its newline is there, so a write torn by a
 * crash or a full disk is recognised as such.
 *
 * Recovery reads records until the first bad one and cuts the log there
 * before anything appends (SQLite and PostgreSQL stop replay the same way;
 * Redis's `aof-load-truncated`): an append never lands after garbage that
 * would hide it from the next start. The cut bytes are kept aside in
 * `<log>.discarded-<time>`, never silently destroyed. A bad record with
 * whole records after it is damage, not a torn write (the log never appends
 * after a bad record): start-up stops and the log is left untouched.
 *
 * Appends write at the log's own offset, every byte or an error, then
 * `fdatasync`. A failed append is cut off again before the next one; until
 * that succeeds the log refuses appends, so nothing follows a torn record.
 */
export class CommitLog {
  private handle: FileHandle | undefined;
  /** End of the last good record: where the next append goes. */
  private end = 0;
  /** Bytes past `end` may exist (a failed append, a tail recovery could not cut). */
  private dirty = false;
  /** The log's folder: synced again before an append while its last sync failed (the log's creation, a snapshot's rename). */
  private readonly folder: FolderState;

  private constructor(readonly file: string) {
    this.folder = folderState(dirname(file));
  }

  /**
   * Reads the log (if any) record by record, hands each record to `replay`
   * (which returns false for a record that is not one of the store's: the
   * log is bad from there on), and cuts a bad tail. A tail that cannot be cut now (read-only storage)
   * is cut before the first append. `warn` hears about cut bytes.
   */
  static async open(file: string, replay: (record: unknown) => boolean, warn: (message: string) => void): Promise<CommitLog> {
    const log = new CommitLog(file);
    const size = await stat(file).then(
      (s) => s.size,
      (error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return -1;
        throw error;
      },
    );
    if (size < 0) return log;
    let bad: number | undefined;
    let lineNumber = 0;
    for await (const line of readLines(file)) {
      lineNumber += 1;
      const record = decode(line);
      if (bad === undefined) {
        if (record !== undefined && replay(record.value)) log.end = line.offset + line.bytes.length + 1;
        else bad = lineNumber;
      } else if (record !== undefined) {
        // Whole records after a bad one: not a write cut short (nothing is appended after one), but damage.
        throw new StoreError(
          `Commit log ${file} is corrupt at line ${bad}: whole records follow it, so it is not a write cut short by a crash. It was left untouched; restore it from a backup, or move it away to start from ${basename(file, '.log')} alone.`,
        );
      }
    }
    if (log.end < size) {
      log.dirty = true;
      await log.setAside(size, warn);
    }
    return log;
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

  /** Copies the bad tail aside, then cuts it; either may fail on read-only storage (then `dirty` stays). */
  private async setAside(size: number, warn: (message: string) => void): Promise<void> {
    const aside = `${this.file}.discarded-${new Date().toISOString().replaceAll(':', '-')}`;
    try {
      // Synced with its folder before the log is cut: the bytes are kept through a power cut too.
      await createFile(aside, createReadStream(this.file, { start: this.end }) as AsyncIterable<Buffer>);
      await this.cut(await this.openHandle());
      warn(
        `${this.file}: the last ${size - this.end} bytes are not a whole record (a write cut short by a crash or a full disk); they were never acknowledged. Moved them to ${aside} and cut the log after the last good record.`,
      );
    } catch (error) {
      warn(
        `${this.file}: the last ${size - this.end} bytes are not a whole record, and cannot be cut yet (${(error as Error).message}). They are ignored; writes will be refused until they can be cut.`,
      );
    }
  }
}

/** One record as a log line. `json` is a JSON text (it has no raw newline). */
export function encodeRecord(json: string): string {
  return `${crc32(json).toString(16).padStart(8, '0')} ${Buffer.byteLength(json)} ${json}\n`;
}

const SPACE = 0x20;

/** A log line's record, or undefined when the line is torn or corrupt. */
function decode(line: Line): { value: unknown } | undefined {
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
