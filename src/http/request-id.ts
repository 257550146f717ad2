import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

/** A client's id is kept when it is short visible ASCII (a UUID, a trace id); anything else is replaced, never echoed. */
const ACCEPTED = /^[\x21-\x7e]{1,128}$/;

/**
 * The request's id: the client's `X-Request-Id` if it is acceptable, else
 * a new UUID. Set on the response as `X-Request-Id`, so a client and the
 * log line name the same request.
 */
export function assignRequestId(req: IncomingMessage, res: ServerResponse): string {
  const given = req.headers['x-request-id'];
  const id = typeof given === 'string' && ACCEPTED.test(given) ? given : randomUUID();
  res.setHeader('X-Request-Id', id);
  return id;
}
