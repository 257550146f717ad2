import express, { type RequestHandler } from 'express';
import { ApiError } from '../http/errors.js';
import { exchangeOf } from './exchange.js';
import { decodeSegment, splitUrl } from './match.js';
import { allowByPath, type Route } from './routes.js';
import type { Pipeline } from './pipeline-types.js';

const undecodable = (part: string): boolean => part.includes('%') && decodeSegment(part) === part;

/**
 * A segment whose percent-encoding does not decode would make Express's
 * router answer 400 before any route, a status getPet does not document:
 * such a segment is kept literal (its '%' escaped) instead.
 */
export const keepUndecodable: RequestHandler = (req, _res, next) => {
  const { path, search } = splitUrl(req.url);
  if (path.includes('%')) {
    const kept = path
      .split('/')
      .map((part) => (undecodable(part) ? part.replaceAll('%', '%25') : part))
      .join('/');
    if (kept !== path) req.url = kept + search;
  }
  next();
};

/**
 * The /v1 routes as Express knows them, for every request the fast path
 * leaves: each operation hands its request to the same pipeline; every
 * other request under /v1 is authenticated first (every endpoint requires
 * a key), then answered 405 with `Allow`, 501 for the store area, or 404.
 */
export function createV1Router(routes: readonly Route[], pipeline: Pipeline, track: RequestHandler): express.Router {
  const v1 = express.Router({ caseSensitive: true });
  v1.use(track);
  for (const route of routes) {
    v1[route.op.method](route.op.routePath, (req, res) =>
      pipeline.serve(req, res, { route, params: req.params as Record<string, string>, query: req.query as Record<string, unknown> }),
    );
  }
  // In proxy mode a request no operation matches is passed on too: the upstream's answer to it is what is checked.
  v1.use((req, res, next) => (pipeline.forwarding() ? pipeline.forward(req, res, undefined) : next()));
  const authenticate: RequestHandler = (req, res, next) => {
    const key = pipeline.authenticate(req);
    const exchange = exchangeOf(res);
    if (exchange) exchange.key = key;
    next();
  };
  for (const [path, allow] of allowByPath(routes)) {
    v1.all(path, authenticate, (req) => {
      throw ApiError.of('method_not_allowed', `${req.method} is not allowed on ${req.baseUrl}${req.path}; allowed: ${allow}.`, { Allow: allow });
    });
  }
  v1.use('/store', authenticate, (req) => {
    throw ApiError.of(
      'not_implemented',
      `${req.method} ${req.originalUrl.split('?')[0]} is part of the store area, whose methods, parameters and responses the interface does not describe.`,
    );
  });
  v1.use(authenticate, (req) => {
    throw ApiError.of('not_found', `No operation at ${req.method} ${req.originalUrl.split('?')[0]}.`);
  });
  return v1;
}
