import type { IncomingMessage, ServerResponse } from 'node:http';
import { requestIdOf } from '../core/request-id.js';

/**
 * The request's id (`requestIdOf`: the client's `X-Request-Id` if it is
 * acceptable, else a new UUID), set on the response as `X-Request-Id`, so
 * a client and the log line name the same request.
 */
export function assignRequestId(req: IncomingMessage, res: ServerResponse): string {
  const id = requestIdOf(req.headers);
  res.setHeader('X-Request-Id', id);
  return id;
}
