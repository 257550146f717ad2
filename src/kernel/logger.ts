/**
 * The logger as the engine and the stores see it: an interface (ops/logger.ts
 * writes it with pino, on Node), and one that writes nothing.
 */

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
  /** A line written at every level but `silent` (as level info): the start-up line, which scripts read to learn the address. */
  notice(message: string, fields?: Record<string, unknown>): void;
  error(message: string, error?: unknown): void;
  /** One line per answered request (level info). */
  request(line: RequestLine): void;
  /** Whether request lines are written: when not, callers need not build them. */
  readonly logsRequests: boolean;
  /** Writes what is buffered, before the process exits. */
  flush(): void;
  /** Request lines dropped since start because their destination did not keep up (docs/operating.md). */
  droppedLines?(): number;
}

/** A logger that writes nothing (a library's default): it loads no logging library, so a browser build can take it. */
export const silentLogger: Logger = {
  info: () => undefined,
  warn: () => undefined,
  notice: () => undefined,
  error: () => undefined,
  request: () => undefined,
  logsRequests: false,
  flush: () => undefined,
};
