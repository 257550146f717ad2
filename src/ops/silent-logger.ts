import type { Logger } from './logger.js';

/** A logger that writes nothing (a library's default), in a file of its own: it loads no logging library, so a browser build can take it. */
export const silentLogger: Logger = {
  info: () => undefined,
  warn: () => undefined,
  notice: () => undefined,
  error: () => undefined,
  request: () => undefined,
  logsRequests: false,
  flush: () => undefined,
};
