import { writeSync } from 'node:fs';
import type { DestinationStream } from 'pino';

/** How long a line may wait in the buffer of a quiet sandbox. */
const FLUSH_EVERY_MS = 200;
/** Lines are written in chunks of about this many characters. */
const CHUNK = 16 * 1024;
/** Characters the buffer may hold unwritten (a reader that does not keep up) before lines are dropped rather than memory grown. */
export const MAX_PENDING = 16 * 1024 * 1024;
/** How often at most the sandbox says that it dropped lines. */
export const DROP_NOTICE_EVERY_MS = 10_000;

/** The request log's destination: written off the request's path, and counted where it could not keep up. */
export interface LogDestination extends DestinationStream {
  /** Writes what is buffered, synchronously: before the process exits. */
  flush(done?: () => void): void;
  /** Lines dropped since start because the buffer was full. */
  dropped(): number;
}

export interface LogDestinationOptions {
  /** The file descriptor written to (1: stdout). */
  fd: number;
  /** Characters held unwritten before lines are dropped; MAX_PENDING unless a test needs less. */
  maxPending?: number;
  /** Hears how many lines were dropped, at most once per DROP_NOTICE_EVERY_MS (the first drop waits that long too). */
  onDropped?: (lines: number) => void;
}

/** Whether a write failed only because the reader is not ready (a full non-blocking pipe): the chunk waits and is tried again. */
const busy = (error: unknown) => ['EAGAIN', 'EWOULDBLOCK', 'EBUSY'].includes((error as NodeJS.ErrnoException).code ?? '');

/**
 * Writes `chunk` to `fd`; the bytes it did not take (a full pipe), if any. New text goes as a string: Node encodes it
 * into memory of its own, where a Buffer made of it here (a new one per 16 KiB chunk) was most of the write's time in
 * the GET profiles. Only what a pipe refused is kept as bytes, to be written on from where it stopped.
 */
function writeSome(fd: number, chunk: string | Buffer): Buffer | undefined {
  if (typeof chunk !== 'string') {
    const written = writeSync(fd, chunk);
    return written === chunk.length ? undefined : chunk.subarray(written);
  }
  const written = writeSync(fd, chunk);
  return written === Buffer.byteLength(chunk) ? undefined : Buffer.from(chunk).subarray(written);
}

/**
 * A request adds its line to a string; the string is written to `fd` in
 * 16 KiB chunks once the current I/O phase is over (`setImmediate`), or
 * 200 ms after its first line on a quiet sandbox. pino's own asynchronous
 * destination (sonic-boom) was measured at 3.5-4 µs of CPU a line against
 * 0.35-0.55 µs for this (docs/performance.md), and a write per line cost a
 * busy sandbox more than half its throughput through a pipe. A reader that
 * does not keep up (a full pipe) makes the unwritten text grow to
 * `maxPending`; past that, lines are dropped, counted (the metric
 * `petstore_log_lines_dropped_total`) and said (`onDropped`), instead of
 * memory grown or a request held. The process's `exit` (a stop, a crash,
 * `process.exit`) writes what waits, in order.
 */
export function asyncDestination({ fd, maxPending = MAX_PENDING, onDropped }: LogDestinationOptions): LogDestination {
  let buffer = '';
  let dropped = 0;
  let told = 0;
  let scheduled: 'soon' | 'later' | undefined;
  let notice: NodeJS.Timeout | undefined;
  const tell = () => {
    notice = undefined;
    if (dropped > told) onDropped?.(dropped - told);
    told = dropped;
  };
  /** The bytes of a chunk `fd` took only in part (a full pipe), written before anything newer. */
  let rest: Buffer | undefined;
  /** Writes as much as `fd` takes now; what it refuses (EAGAIN) waits for the next try. */
  const writeOut = () => {
    scheduled = undefined;
    while (rest || buffer !== '') {
      const chunk = rest ?? buffer;
      if (!rest) buffer = '';
      try {
        rest = writeSome(fd, chunk);
      } catch (error) {
        // A reader not ready: tried again later. Any other failure (a closed stdout): the lines cannot go anywhere.
        if (busy(error)) {
          rest = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
          schedule('later');
        } else rest = undefined;
        return;
      }
    }
  };
  const schedule = (when: 'soon' | 'later') => {
    if (scheduled === 'soon' || scheduled === when) return;
    scheduled = when;
    if (when === 'soon') setImmediate(writeOut);
    else setTimeout(writeOut, FLUSH_EVERY_MS).unref();
  };
  const flush = (done?: () => void) => {
    if (notice) {
      clearTimeout(notice);
      tell();
    }
    writeOut();
    done?.();
  };
  process.on('exit', () => flush());
  return {
    write(line: string) {
      if (buffer.length + (rest?.length ?? 0) + line.length > maxPending) {
        dropped += 1;
        // One notice for a burst of drops, not one per line: the notice would need the very room that is missing.
        if (onDropped) notice ??= setTimeout(tell, DROP_NOTICE_EVERY_MS).unref();
        return;
      }
      buffer += line;
      schedule(buffer.length >= CHUNK ? 'soon' : 'later');
    },
    flush,
    dropped: () => dropped,
  };
}
