import express from 'express';
import type { RequestListener } from 'node:http';
import { createNodeMiddleware } from '../adapters/node-middleware.js';
import type { Engine } from '../engine/engine.js';
import type { AnsweredRequest } from '../kernel/operation.js';
import { requestIdOf } from '../engine/engine.js';
import { writeError } from '../adapters/node-error.js';
import { isPagePath } from './pages.js';

export interface ServerAppDeps {
  engine: Engine;
  /** The browser pages (docs, console), an Express app of their own (server/pages.ts). */
  pages: express.Express;
  /** Hears each page's answer once sent, as the engine's answers are heard (request log, metrics). */
  onPage: (answered: AnsweredRequest) => void;
}

/**
 * The pages' step: a GET or HEAD of a page or its assets goes to the pages'
 * own app, with a request id and a report once sent; any other request, and
 * a page path the pages have nothing at, goes on to the engine.
 */
function pagesStep({ pages, onPage }: ServerAppDeps): express.RequestHandler {
  return (req, res, next) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || !isPagePath(req.url)) return next();
    const start = performance.now();
    const requestId = requestIdOf(req.headers);
    res.setHeader('X-Request-Id', requestId);
    const url = req.url;
    res.once('finish', () => {
      const { method, headers } = req;
      onPage({ method, headers, url, status: res.statusCode, durationMs: performance.now() - start, requestId, operation: undefined });
    });
    pages(req, res, next);
  };
}

/**
 * The Node server's request listener: an Express app that mounts the pages
 * and then the same middleware a team mounts in its own server
 * (adapters/node-middleware.ts), here answering every request that is not a
 * page (an unknown path gets the engine's 404). Express routes no /v1 or
 * control-plane request: the engine's one `handle` does.
 *
 * Requests enter through the app's router (`app.router`, Express 5's own),
 * not `app.handle`: the latter swaps the prototypes of every request and
 * response for Express's, which halved the requests per second of a GET
 * (docs/performance.md). The pages' app does that for its own requests.
 */
export function createServerListener(deps: ServerAppDeps): RequestListener {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use(pagesStep(deps));
  app.use(createNodeMiddleware(deps.engine, { passOn: false }));
  const router = app.router;
  // Nothing passes the middleware above: what reaches the end is a failure of the router itself, or a page's.
  return (req, res) => router(req as express.Request, res as express.Response, (error?: unknown) => writeError(req, res, error));
}
