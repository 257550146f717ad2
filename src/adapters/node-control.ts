import express from 'express';
import type { ControlEngine } from '../core/control/engine.js';
import { CONTROL_BODY_LIMIT } from '../core/control/engine.js';
import type { EngineRequest } from '../core/types.js';
import { readJsonBytes } from '../http/read-json-body.js';
import { requestSignal } from '../http/request-signal.js';
import { writeEngineResponse } from './node-response.js';

/** The path and query of a request target: an absolute-form target (`GET http://host/path`) routes by its path, as Express routes it. */
const originForm = (target: string): string => (target.startsWith('/') ? target : target.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i, '') || '/');

/**
 * The control plane and the operations at the root on the Node server: an
 * engine request made of Express's, its body read (media type first, at
 * most 64 MiB decoded) only when the engine will use it, the engine's
 * answer written out, and the operation that answered kept in
 * `res.locals.operation` for the request log and the metrics. A request the
 * engine does not own goes on to the rest of the app; a body the reader
 * refuses goes to the app's error exit, as every failure of reading does.
 */
export function createControlRouter(engine: ControlEngine): express.Router {
  const router = express.Router();
  router.use((req, res, next) => {
    const request: EngineRequest = {
      method: req.method,
      url: originForm(req.originalUrl),
      // The id Express's first step gave the request (and set on the response): the engine answers with the same.
      headers: { ...req.headers, 'x-request-id': res.locals.requestId as string | undefined },
      // Watched from before the first wait: what is started after it (a live tail) stops when the client has left meanwhile.
      signal: requestSignal(res),
    };
    const serve = async () => {
      if (engine.readsBody(request)) request.body = await readJsonBytes(req, CONTROL_BODY_LIMIT);
      const answer = engine.handle(request);
      if (!answer) return next();
      const response = await answer;
      res.locals.operation = response.operation;
      // Answered before its body was read (a refused credential): the rest of it is never read.
      if (!req.complete) res.shouldKeepAlive = false;
      await writeEngineResponse(res, response, req.method === 'HEAD');
    };
    serve().catch((error: unknown) => {
      if (res.headersSent) res.destroy();
      else next(error);
    });
  });
  return router;
}
