import type { IncomingMessage, ServerResponse } from 'node:http';
import type { OperationSpec } from '../openapi/spec.js';
import type { V1Exchange } from '../operation.js';

/** What a /v1 response carries for the listener that reports it once sent (journal, metrics). */
export interface Exchange {
  start: number;
  op?: OperationSpec;
  key?: string;
  /** The response body as sent, and its JSON text. */
  body?: unknown;
  text?: string;
  /** The request body's bytes as read (a Content-Encoding undone). */
  bytes?: Buffer;
}

/** A response with its exchange; Express's `res.locals` slot, or the same on a bare response. */
export type Tracked = ServerResponse & { locals: Exchange };

/** The exchange a response carries, if it is tracked. */
export const exchangeOf = (res: ServerResponse): Exchange | undefined => (res as Partial<Tracked>).locals;

/**
 * Starts tracking a /v1 request: its response carries an exchange, and
 * `onResponse` hears about it once the response is sent. One shared
 * listener, no closure per request: the response carries what it needs.
 */
export function createTracker(onResponse: ((event: V1Exchange) => void) | undefined): (res: ServerResponse) => Exchange {
  const finished =
    onResponse &&
    function (this: ServerResponse) {
      const { op, key, body, text, bytes, start } = (this as Tracked).locals;
      const req = this.req as IncomingMessage & { originalUrl?: string };
      onResponse({
        req,
        // Express rewrites req.url under a mount point; originalUrl is the target as sent.
        url: req.originalUrl ?? req.url ?? '',
        requestBytes: bytes,
        op,
        key,
        status: this.statusCode,
        body,
        text,
        durationMs: performance.now() - start,
      });
    };
  return (res) => {
    const exchange: Exchange = { start: performance.now() };
    (res as Tracked).locals = exchange;
    if (finished) res.on('finish', finished);
    return exchange;
  };
}
