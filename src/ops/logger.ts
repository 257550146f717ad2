import { pino, type DestinationStream } from 'pino';
import type { LogLevel } from '../config/ops.js';
import { requestLineWriter } from './request-line.js';
import type { Logger } from '../kernel/logger.js';

export interface LoggerOptions {
  level: LogLevel;
  /** Where lines below `warn` go (stdout). */
  out: DestinationStream;
  /** Where warnings and errors go (stderr). */
  err: DestinationStream;
  /** Lines `out` dropped since start, when it can drop any. */
  dropped?: () => number;
}

/**
 * pino's `isoTime` (the same `"time"` field, ISO 8601), its text made once
 * per millisecond: a busy sandbox writes several lines in each, and
 * `toISOString` was a few percent of a request's CPU in its profile.
 */
function isoTime(): () => string {
  let ms = -1;
  let field = '';
  return () => {
    const now = Date.now();
    if (now !== ms) {
      ms = now;
      field = `,"time":"${new Date(now).toISOString()}"`;
    }
    return field;
  };
}

/**
 * A pino logger: one JSON object a line, `level` as a name, `time` in ISO
 * 8601. Warnings and errors go to `err` only, the rest to `out`.
 */
export function createLogger({ level, out, err, dropped = () => 0 }: LoggerOptions): Logger {
  const options = { level, timestamp: isoTime(), formatters: { level: (label: string) => ({ level: label }) } };
  // Two loggers rather than one over pino.multistream: a request line is written without a per-line choice of stream.
  const log = pino(options, out);
  const alarm = pino(options, err);
  // Below `info` the start-up line would vanish with the request lines; `silent` alone means nothing is written.
  const always = level === 'silent' || log.isLevelEnabled('info') ? log : pino({ ...options, level: 'info' }, out);
  const logsRequests = log.isLevelEnabled('info');
  const request = logsRequests ? requestLineWriter(log, options.timestamp, out) : () => undefined;
  return {
    info: (message, fields) => (fields ? log.info(fields, message) : log.info(message)),
    warn: (message, fields) => (fields ? alarm.warn(fields, message) : alarm.warn(message)),
    notice: (message, fields) => (fields ? always.info(fields, message) : always.info(message)),
    error: (message, error) => (error === undefined ? alarm.error(message) : alarm.error({ err: error }, message)),
    request,
    logsRequests,
    flush: () => {
      log.flush();
      alarm.flush();
      if (always !== log) always.flush();
    },
    droppedLines: dropped,
  };
}
