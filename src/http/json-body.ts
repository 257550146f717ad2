import type { IncomingMessage, ServerResponse } from 'node:http';
import { limitJsonDepth } from './json-depth.js';

/**
 * A `verify` hook for Express's JSON parser, on `/v1` and the control plane:
 * it sees the body's bytes before they are decoded. `capture` gets them
 * first (the journal shows a refused body too), then the body is refused
 * if it is nested deeper than the limit.
 */
export function verifyJsonBody(capture?: (res: ServerResponse, bytes: Buffer) => void) {
  const checkDepth = limitJsonDepth();
  return (req: IncomingMessage, res: ServerResponse, bytes: Buffer): void => {
    capture?.(res, bytes);
    checkDepth(req, res, bytes);
  };
}
