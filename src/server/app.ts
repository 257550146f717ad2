import express from 'express';
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { createNodeCors, createOptionsOutside } from '../adapters/node-cors.js';
import { createForwarder } from '../adapters/node-forward.js';
import { createNodeV1 } from '../adapters/node-v1.js';
import type { Config, Mode } from '../config/load.js';
import { createCors } from '../core/cors.js';
import type { Unexpected } from '../core/error-exit.js';
import { createV1Engine, type V1Engine } from '../core/v1-engine.js';
import { createErrorHandler } from '../http/error-handler.js';
import { ApiError } from '../http/errors.js';
import { assignRequestId } from '../http/request-id.js';
import type { AnsweredRequest, Interceptor, ModeHandler, Runtime, V1Exchange } from '../core/operation.js';
import type { PassThroughMode } from '../modes/proxy/types.js';
import type { Spec } from '../openapi/spec.js';
import type { Validators } from '../openapi/validate.js';

export interface AppDeps {
  config: Config;
  spec: Spec;
  validators: Validators;
  /** A handler for each mode the sandbox can switch to; `stateful` is required. */
  modes: { stateful: ModeHandler } & Partial<Record<Mode, ModeHandler>>;
  runtime: Runtime;
  /** Run in order after validation; the first reply wins over the mode. */
  interceptors?: Interceptor[];
  /** Proxy mode, when an upstream is configured: in that mode every /v1 request is passed on to it. */
  passThrough?: PassThroughMode;
  /** Brings shared state up to date before each /v1 request is answered (a shared database); absent when nothing is shared. */
  sync?: (key?: string) => void | Promise<void>;
  /**
   * Extra routers mounted outside /v1, in order: one that passes a request on (the web pages, the root router with probes and
   * metrics) leaves it to the next; the control plane at /__sandbox answers every request under its path, with its own CORS.
   */
  extensions?: { path: string; router: express.Router }[];
  /** Called for unexpected (500) failures, with the error and the request's method and target; the client sees none of it. */
  onUnexpected?: Unexpected;
  /** Called when each /v1 response has been sent (journal, metrics, request log). */
  onResponse?: (event: V1Exchange) => void;
  /** Called when any other response has been sent (control plane, probes, unknown paths): request log, metrics. */
  onAnswered?: (event: AnsweredRequest) => void;
  /** The /v1 engine already made from these deps (the assembled engine's); made here when absent. */
  engine?: V1Engine;
}

/**
 * Express's first step: the request's id, and a report of its answer once
 * sent, unless the /v1 engine answered it (that one reports its own, once).
 */
function watchAnswers(onAnswered: AppDeps['onAnswered'], byEngine: WeakSet<ServerResponse>): express.RequestHandler {
  return (req, res, next) => {
    const start = performance.now();
    const requestId = assignRequestId(req, res);
    res.locals.requestId = requestId;
    if (onAnswered)
      res.once('finish', () => {
        if (byEngine.has(res)) return;
        const operation = (res.locals as { operation?: string }).operation;
        onAnswered({
          method: req.method,
          headers: req.headers,
          url: req.originalUrl,
          status: res.statusCode,
          durationMs: performance.now() - start,
          requestId,
          operation,
        });
      });
    next();
  };
}

/** The sandbox's request handling: the Express app, and the fast path's one branch into the same engine. */
export interface Handlers {
  app: express.Express;
  /** The /v1 engine both ways in reach: the same one a transport without Node (the fetch handler) calls. */
  engine: V1Engine;
  /** Takes a /v1 request with a plain URL into the engine and returns true, or touches nothing and returns false. */
  fast(req: IncomingMessage, res: ServerResponse): boolean;
}

/**
 * Composes the sandbox from injected parts; creates nothing at import time,
 * opens no file and no port, so tests build as many as they like. Every
 * /v1 request goes to the one engine (`src/core/`, see src/README.md)
 * through the Node adapter, from the fast path's branch or Express's `/v1`
 * mount; Express routes the rest: the pages, the control plane, the probes.
 */
export function createHandlers(deps: AppDeps): Handlers {
  const { spec } = deps;
  for (const [name, mode] of Object.entries(deps.modes)) {
    for (const op of spec.operations.keys()) if (!mode.operations.has(op)) throw new Error(`Mode ${name} has no handler for spec operation ${op}`);
  }
  const engine = deps.engine ?? createV1Engine(deps);
  const forwarder = createForwarder({ ...deps, engine });
  const v1 = createNodeV1(engine, forwarder, deps.config);
  const cors = createNodeCors(createCors(deps.config));
  const byEngine = new WeakSet<ServerResponse>();

  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use(watchAnswers(deps.onAnswered, byEngine));
  app.use(createOptionsOutside(deps.config, cors));
  // Extensions come first and answer everything under their path, CORS included: the control plane
  // allows only its own origins, never /v1's (by default any).
  for (const extension of deps.extensions ?? []) app.use(extension.path, extension.router);
  app.use('/v1', (req, res) => {
    byEngine.add(res);
    v1.serve(req, res, req.originalUrl);
  });
  app.use(cors);
  app.use((req: express.Request, _res: express.Response, next: express.NextFunction) => {
    next(ApiError.of('not_found', `No route ${req.method} ${req.path}. The Pet Store interface is served under /v1.`));
  });
  app.use(createErrorHandler(deps.onUnexpected));
  return { app, fast: v1.fast, engine };
}

/** The Express app alone (every request through Express's routing). */
export function createApp(deps: AppDeps): express.Express {
  return createHandlers(deps).app;
}

/**
 * The server's request listener: the fast path takes what the pipeline can
 * serve without Express's routing, Express the rest. `fastPath: false`
 * sends everything through Express (tests compare the two).
 */
export function createRequestListener(deps: AppDeps, options: { fastPath?: boolean } = {}): { listener: RequestListener; engine: V1Engine } {
  const { app, fast, engine } = createHandlers(deps);
  if (options.fastPath === false) return { listener: app, engine };
  return {
    listener: (req, res) => {
      if (!fast(req, res)) app(req, res);
    },
    engine,
  };
}
