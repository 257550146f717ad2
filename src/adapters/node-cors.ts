import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Config } from '../config/load.js';
import type { Cors, OutHeaders } from '../core/cors.js';
import { ApiError } from '../http/errors.js';

/** A step of Express's chain, outside /v1 (the engine does /v1's CORS itself). */
export type NodeStep = (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void;

const setAll = (res: ServerResponse, out: OutHeaders) => {
  for (const name in out) res.setHeader(name, out[name] as string);
};

/**
 * /v1's CORS on the answers outside it (an unknown path's 404 carries the
 * same headers as /v1's answers), from the engine's one CORS: a preflight
 * answered 204, an actual request's headers set before the next step.
 */
export function createNodeCors(cors: Cors): NodeStep {
  return (req, res, next) => {
    const out: OutHeaders = {};
    if (req.method !== 'OPTIONS') {
      cors.actual(req.headers, out);
      setAll(res, out);
      return next();
    }
    cors.preflight(req.headers, out);
    setAll(res, out);
    res.statusCode = 204;
    res.end();
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
export function createOptionsOutside(config: Pick<Config, 'corsOrigins'>, cors: NodeStep): NodeStep {
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
