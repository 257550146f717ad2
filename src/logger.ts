import { pino, type DestinationStream } from 'pino';
import type { LogLevel } from './config-ops.js';

/** One answered request, as its log line has it: never a key or a token. */
export interface RequestLine {
  requestId: string;
  method: string;
  /** The path without its query string (a query may carry what a log should not keep). */
  path: string;
  status: number;
  durationMs: number;
  /** The spec operation (`listPets`) or control operation (`getReadiness`) answered, if one was. */
  operation: string | undefined;
  /** The workspace id of the accepted API key (a keyed hash, never the key). */
  workspace: string | undefined;
  mode: string;
}

/** Where the sandbox says what it does not answer to a client: start-up, each request, repairs, unexpected failures. */
export interface Logger {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, error?: unknown): void;
  /** One line per answered request (level info). */
  request(line: RequestLine): void;
  /** Whether request lines are written: when not, callers need not build them. */
  readonly logsRequests: boolean;
  /** Writes what is buffered, before the process exits. */
  flush(): void;
}

export const silentLogger: Logger = {
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
  request: () => undefined,
  logsRequests: false,
  flush: () => undefined,
};

export interface LoggerOptions {
  level: LogLevel;
  /** Where lines below `warn` go (stdout). */
  out: DestinationStream;
  /** Where warnings and errors go (stderr). */
  err: DestinationStream;
}

/**
 * A pino logger: one JSON object a line, `level` as a name, `time` in ISO
 * 8601. Warnings and errors go to `err` only, the rest to `out`.
 */
export function createLogger({ level, out, err }: LoggerOptions): Logger {
  const log = pino(
    { level, timestamp: pino.stdTimeFunctions.isoTime, formatters: { level: (label) => ({ level: label }) } },
    pino.multistream(
      [
        { level: 'trace', stream: out },
        { level: 'warn', stream: err },
      ],
      { dedupe: true },
    ),
  );
  return {
    info: (message, fields) => (fields ? log.info(fields, message) : log.info(message)),
    warn: (message, fields) => (fields ? log.warn(fields, message) : log.warn(message)),
    error: (message, error) => (error === undefined ? log.error(message) : log.error({ err: error }, message)),
    request: (line) => log.info(line, 'request'),
    logsRequests: log.isLevelEnabled('info'),
    flush: () => log.flush(),
  };
}

/**
 * A JSON destination on a file descriptor. Lines to stdout are written
 * asynchronously (a request never waits for the log), at most 16 MiB
 * pending: past that, lines are dropped rather than memory grown.
 * Warnings and errors to stderr are written at once: they are rare and
 * must not be lost in a crash.
 */
export function jsonDestination(fd: 1 | 2): DestinationStream {
  return fd === 1 ? pino.destination({ dest: 1, sync: false, maxLength: 16 * 1024 * 1024 }) : pino.destination({ dest: 2, sync: true });
}
