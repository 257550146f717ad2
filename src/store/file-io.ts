import { constants } from 'node:fs';
import { open, rm, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';

/**
 * Small, careful file primitives for the store: every byte written or an
 * error, folders synced after a file is created or renamed, and files read
 * as a stream of lines, never as one string (V8 caps a string near 512 MiB).
 */

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

/** Makes a folder's entries (a created or renamed file) durable. */
export async function fsyncDir(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Opens `file` for positioned writes, creating it if needed (not O_APPEND:
 * the log writes at its own offset, so a failed write is overwritten, not
 * followed). Tells whether the file was created.
 */
export async function openForWrite(file: string): Promise<{ handle: FileHandle; created: boolean }> {
  try {
    return { handle: await open(file, constants.O_RDWR), created: false };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  return { handle: await open(file, constants.O_RDWR | constants.O_CREAT | constants.O_EXCL, 0o644), created: true };
}

const NEWLINE = 0x0a;
const CHUNK = 1024 * 1024;

/** A line of a file: its bytes without the newline, and where it starts. `complete` is false for a last line with no newline. */
export interface Line {
  bytes: Buffer;
  offset: number;
  complete: boolean;
}

/** The lines of a file, read in 1 MiB chunks; a line may be of any length. */
export async function* readLines(file: string): AsyncGenerator<Line> {
  const handle = await open(file, 'r');
  try {
    let carry: Buffer[] = [];
    let carryStart = 0;
    let position = 0;
    const buffer = Buffer.allocUnsafe(CHUNK);
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, CHUNK, position);
      if (bytesRead === 0) break;
      const chunk = buffer.subarray(0, bytesRead);
      let start = 0;
      for (let nl = chunk.indexOf(NEWLINE); nl !== -1; nl = chunk.indexOf(NEWLINE, start)) {
        const piece = chunk.subarray(start, nl);
        const bytes = carry.length > 0 ? Buffer.concat([...carry, piece]) : Buffer.from(piece);
        yield { bytes, offset: carry.length > 0 ? carryStart : position + start, complete: true };
        carry = [];
        start = nl + 1;
      }
      if (start < bytesRead) {
        if (carry.length === 0) carryStart = position + start;
        carry.push(Buffer.from(chunk.subarray(start)));
      }
      position += bytesRead;
    }
    if (carry.length > 0) yield { bytes: Buffer.concat(carry), offset: carryStart, complete: false };
  } finally {
    await handle.close();
  }
}

/**
 * Removes files and folders (with what they hold), then syncs each folder
 * they were in, so the removal survives a power cut. A path already gone is
 * no error, nor is a parent folder that never existed.
 */
export async function removeDurably(paths: readonly string[]): Promise<void> {
  const parents = new Set<string>();
  for (const path of paths) {
    await rm(path, { recursive: true, force: true });
    parents.add(dirname(path));
  }
  for (const dir of parents) {
    await fsyncDir(dir).catch((error: unknown) => {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    });
  }
}
