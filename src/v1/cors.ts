import cors from 'cors';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Config } from '../config.js';
import { ApiError } from '../http/errors.js';

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

/** Whether `path` is `/v1` or `/__sandbox` or under them, as Express mounts them (case-insensitive). */
const coveredElsewhere = (path: string) => /^\/(v1|__sandbox)(\/|$)/i.test(path);

/**
 * OPTIONS outside /v1 and the control plane. No route there has it (the
 * pages, the probes, any other path), so it is answered as on an unknown
 * path: a CORS preflight from an origin /v1's CORS allows gets its 204,
 * as an unknown path's answers carry /v1's CORS headers; any other OPTIONS
 * the unknown path's 404. Without this step Express would answer a path
 * that has routes with a 200 `text/plain` list of its methods.
 */
export function createOptionsOutside(config: Pick<Config, 'corsOrigins'>, cors: CorsStep): CorsStep {
  const allows = (origin: string) => config.corsOrigins === '*' || config.corsOrigins.includes(origin);
  return (req, res, next) => {
    const path = (req.url ?? '/').split('?', 1)[0] as string;
    if (req.method !== 'OPTIONS' || coveredElsewhere(path)) return next();
    const { origin } = req.headers;
    const preflight = origin !== undefined && req.headers['access-control-request-method'] !== undefined;
    if (preflight && allows(origin)) return cors(req, res, next);
    next(ApiError.of('not_found', `No route OPTIONS ${path}. The Pet Store interface is served under /v1.`));
  };
}
