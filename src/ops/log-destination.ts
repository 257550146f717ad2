import { pino, type DestinationStream } from 'pino';

/** How long a line may wait in the buffer of a quiet sandbox. */
const FLUSH_EVERY_MS = 200;
/** Lines are written in chunks of at least this many bytes (or every FLUSH_EVERY_MS); sonic-boom writes at most 16 KiB at once. */
const CHUNK = 8 * 1024;
/** Bytes the buffer may hold unwritten (a reader that does not keep up) before lines are dropped rather than memory grown. */
export const MAX_PENDING = 16 * 1024 * 1024;
/** How often at most the sandbox says that it dropped lines. */
export const DROP_NOTICE_EVERY_MS = 10_000;

/** The request log's destination: written off the request's path, and counted where it could not keep up. */
export interface LogDestination extends DestinationStream {
  /** Writes what is buffered, synchronously: before the process exits, or as it crashes. */
  flush(done?: () => void): void;
  /** Lines dropped since start because the buffer was full. */
  dropped(): number;
  /** Flushes, then stops writing (its timer too) and closes `fd`, unless it is stdout or stderr. */
  close(): void;
}

export interface LogDestinationOptions {
  /** The file descriptor written to (1: stdout). */
  fd: number;
  /** Bytes held unwritten before lines are dropped; MAX_PENDING unless a test needs less. */
  maxPending?: number;
  /** Hears how many lines were dropped, at most once per DROP_NOTICE_EVERY_MS (the first drop waits that long too). */
  onDropped?: (lines: number) => void;
}

/**
 * pino's asynchronous destination (sonic-boom): a request adds its line to
 * a buffer, and the buffer is written to `fd` by the event loop in 8 to 16 KiB
 * chunks, or 200 ms after it was last written; a write per line cost a busy
 * sandbox more than half its throughput through a pipe
 * (docs/performance.md). A reader that does not keep up (a full pipe) makes
 * the buffer grow to `maxPending`; past that, lines are dropped, counted
 * (the metric `petstore_log_lines_dropped_total`) and said (`onDropped`),
 * instead of memory grown or a request held. The shutdown writes what is
 * buffered (`flush`); so does any end of the process, a crash or
 * `process.exit` too: pino registers its asynchronous destinations to be
 * flushed synchronously on the process's `exit`.
 */
export function asyncDestination({ fd, maxPending = MAX_PENDING, onDropped }: LogDestinationOptions): LogDestination {
  const boom = pino.destination({ dest: fd, sync: false, minLength: CHUNK, maxLength: maxPending, periodicFlush: FLUSH_EVERY_MS });
  let dropped = 0;
  let told = 0;
  let timer: NodeJS.Timeout | undefined;
  const tell = () => {
    timer = undefined;
    onDropped?.(dropped - told);
    told = dropped;
  };
  // A stdout closed under the sandbox (EPIPE) must not end it: lines then wait, and past the bound are dropped and counted.
  boom.on('error', () => undefined);
  boom.on('drop', () => {
    dropped += 1;
    // One notice for a burst of drops, not one per line: the notice would need the very room that is missing.
    if (onDropped) timer ??= setTimeout(tell, DROP_NOTICE_EVERY_MS).unref();
  });
  const destination: LogDestination = {
    write: (line: string) => boom.write(line),
    flush(done?: () => void) {
      if (timer) {
        clearTimeout(timer);
        tell();
      }
      try {
        boom.flushSync();
      } catch {
        // A closed or broken stdout: the lines cannot be written anywhere, and the exit must not fail for it.
      }
      done?.();
    },
    dropped: () => dropped,
    close() {
      destination.flush();
      boom.destroy();
    },
  };
  return destination;
}
