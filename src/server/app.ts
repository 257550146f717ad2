import express from 'express';
import type { RequestListener } from 'node:http';
import { asListener, createNodeMiddleware, type Middleware, type RequestsInFlight } from '../adapters/node-middleware.js';
import type { Engine } from '../engine/engine.js';
import type { AnsweredRequest } from '../kernel/operation.js';
import { requestIdOf } from '../engine/engine.js';
import { writeEngineResponse } from '../adapters/node-response.js';
import { PAGE_ROUTES, PAGE_TARGETS } from './pages.js';

export interface ServerAppDeps {
  engine: Engine;
  /** The browser pages (docs, console), an Express app of their own (server/pages.ts). */
  pages: express.Express;
  /** Hears each page's answer once sent, as the engine's answers are heard (request log, metrics). */
  onPage: (answered: AnsweredRequest) => void;
  /** The engine's requests under way, counted for a stop that waits for them and refuses new ones. */
  inFlight?: RequestsInFlight;
}

/**
 * The pages' step, for GET and HEAD of the pages' paths: the pages' own
 * app, with a request id and a report once sent. The exposure rule judges
 * a page's request first, as it does the engine's (a Host not allowed is
 * refused). A page path the pages have nothing at goes on to the engine
 * (its 404), reported by it instead.
 */
function pagesStep({ engine, pages, onPage }: ServerAppDeps): express.RequestHandler {
  return (req, res, next) => {
    const start = performance.now();
    const url = req.url;
    const refused = engine.screen({ method: req.method, url, headers: req.headers, peer: req.socket.remoteAddress ?? '' });
    const requestId = refused ? String(refused.headers['X-Request-Id']) : requestIdOf(req.headers);
    const report = () => {
      const { method, headers } = req;
      onPage({ method, headers, url, status: res.statusCode, durationMs: performance.now() - start, requestId, operation: undefined });
    };
    res.once('finish', report);
    if (refused) return void writeEngineResponse(res, refused, req.method === 'HEAD');
    res.setHeader('X-Request-Id', requestId);
    pages(req, res, (error?: unknown) => {
      res.off('finish', report);
      res.removeHeader('X-Request-Id');
      next(error);
    });
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
 * And a request the router could only pass to the middleware (any but GET
 * or HEAD of what may be a page's path) goes to that same middleware
 * directly: the router's walk allocates about 1.7 KB per request, which
 * doubled a GET's garbage collection.
 */
export function createServerListener(deps: ServerAppDeps): RequestListener {
  const engineStep = createNodeMiddleware(deps.engine, { passOn: false, ...(deps.inFlight ? { inFlight: deps.inFlight } : {}) });
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  // Routed by Express, GET and HEAD of the pages' paths only: no other request calls the pages' step.
  app.get(PAGE_ROUTES, pagesStep(deps));
  app.use(engineStep);
  // Nothing passes the middleware: what reaches the end is a failure of the router itself, or a page's.
  return asListener(app.router as unknown as Middleware, { step: engineStep, own: PAGE_TARGETS });
}
