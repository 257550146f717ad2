import cors from 'cors';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Config } from '../config.js';

/** Headers a script in a browser may read on a /v1 answer. */
const EXPOSED = ['Deprecation', 'Sunset', 'Link', 'WWW-Authenticate'];

/**
 * CORS of /v1 (`--cors-origins`): the first step of every /v1 request, the
 * same function whether Express or the fast path takes the request.
 */
export type CorsStep = (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void;

/**
 * The cors package answers preflights and decides per origin. With any
 * origin allowed, an actual (non-preflight) request gets two constant
 * headers, the ones the package would set; it recomputes them on every
 * request, a cost on the hot path.
 */
export function createCors(config: Pick<Config, 'corsOrigins'>): CorsStep {
  const handler = cors({
    origin: config.corsOrigins === '*' ? '*' : [...config.corsOrigins],
    allowedHeaders: ['Authorization', 'Content-Type', 'Prefer', 'Accept', 'X-Sandbox-Key'],
    exposedHeaders: EXPOSED,
    maxAge: 600,
  });
  if (config.corsOrigins !== '*') return handler;
  const exposed = EXPOSED.join(',');
  return (req, res, next) => {
    if (req.method === 'OPTIONS') return handler(req, res, next);
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.setHeader('Access-Control-Expose-Headers', exposed);
    next();
  };
}
