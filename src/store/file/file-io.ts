import { open } from 'node:fs/promises';

/**
 * Files read as a stream of lines, never as one string (V8 caps a string
 * near 512 MiB): the commit log's recovery, the snapshot's reader. Files and
 * folders are created, renamed and removed in `durable-entries.ts`.
 */

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
