import type { EngineHeaders } from './types.js';

/** A client's id is kept when it is short visible ASCII (a UUID, a trace id); anything else is replaced, never echoed. */
const ACCEPTED = /^[\x21-\x7e]{1,128}$/;

/**
 * A request's id: the client's `X-Request-Id` if it is acceptable, else a
 * new UUID. Answers carry it as `X-Request-Id`, so a client and the log
 * line name the same request.
 */
export function requestIdOf(headers: EngineHeaders): string {
  const given = headers['x-request-id'];
  return typeof given === 'string' && ACCEPTED.test(given) ? given : crypto.randomUUID();
}
