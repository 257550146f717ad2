import type { IncomingMessage, ServerResponse } from 'node:http';
import { writeError } from '../http/error-handler.js';
import { readDecodedBody } from '../http/read-json-body.js';
import { requestSignal } from '../http/request-signal.js';
import { servesPath } from '../core/served-paths.js';
import type { EngineHeaders } from '../core/types.js';
import type { EngineHandle } from '../core/engine.js';
import { writeEngineResponse } from './node-response.js';

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
export function createMiddleware(ready: Promise<{ handle: EngineHandle; bodyLimit: number }>): Middleware {
  return (req, res, next) => {
    if (!servesPath(req.url ?? '/')) return next();
    const serve = async ({ handle, bodyLimit }: { handle: EngineHandle; bodyLimit: number }) => {
      const body = parsedBody(req) ?? (await readDecodedBody(req, bodyLimit));
      const request = { method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers as EngineHeaders, body, signal: requestSignal(res) };
      const response = await handle(request);
      if (!response) return next();
      await writeEngineResponse(res, response, req.method === 'HEAD');
    };
    /** A body that could not be read (too large, not decodable): its Error body; a failure once the head is sent ends the response. */
    const fail = (error: unknown) => writeError(req, res, error);
    ready.then((engine) => serve(engine).catch(fail), next);
  };
}
