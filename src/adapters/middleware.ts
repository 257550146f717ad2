import type { IncomingMessage, ServerResponse } from 'node:http';
import { writeError } from '../http/error-handler.js';
import { readDecodedBody } from '../http/read-json-body.js';
import { requestSignal } from '../http/request-signal.js';
import { servesPath } from '../core/served-paths.js';
import type { EngineHeaders, EngineRequest } from '../core/types.js';
import type { EngineHandle, EngineRefuse } from '../core/engine.js';
import { writeEngineResponse } from './node-response.js';

/** What the middleware serves with: the engine, and the body limit its Node reader keeps. */
export interface MiddlewareEngine {
  handle: EngineHandle;
  refuse: EngineRefuse;
  bodyLimit: number;
}

/** Connect's and Express's middleware signature. */
export type Middleware = (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void;

/** The body a framework's own parser has taken already (`express.json()` mounted first), as bytes again. */
function parsedBody(req: IncomingMessage): Uint8Array | undefined {
  const parsed = (req as { body?: unknown }).body;
  if (parsed === undefined || !req.readableEnded) return undefined;
  if (parsed instanceof Uint8Array) return parsed;
  return new TextEncoder().encode(typeof parsed === 'string' ? parsed : JSON.stringify(parsed));
}

/**
 * The engine as Connect middleware, for a team's own Express, webpack or
 * Vite dev server: the requests the engine serves (`/v1`, `/__sandbox`, the
 * probes; under the path it is mounted at) are answered, every other one is
 * passed on with `next()`, its body unread. `ready` resolves to the engine once it is
 * assembled; requests that come before wait for it.
 */
export function createMiddleware(ready: Promise<MiddlewareEngine>): Middleware {
  return (req, res, next) => {
    if (!servesPath(req.url ?? '/')) return next();
    const request: EngineRequest = { method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers as EngineHeaders, signal: requestSignal(res) };
    const head = req.method === 'HEAD';
    const serve = async ({ handle, refuse, bodyLimit }: MiddlewareEngine) => {
      try {
        request.body = parsedBody(req) ?? (await readDecodedBody(req, bodyLimit));
      } catch (error) {
        // A body that could not be read (too large, not decodable): the engine's answer, as on the server; the rest is never read.
        const refused = refuse(request, error);
        if (!refused) throw error;
        if (!req.complete) res.shouldKeepAlive = false;
        return writeEngineResponse(res, refused, head);
      }
      const response = await handle(request);
      if (!response) return next();
      await writeEngineResponse(res, response, head);
    };
    /** Any other failure: its Error body; once the head is sent, the response is ended. */
    const fail = (error: unknown) => writeError(req, res, error);
    ready.then((engine) => serve(engine).catch(fail), next);
  };
}
