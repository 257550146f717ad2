import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Engine } from '../engine/engine.js';
import type { BodyReader, EngineHeaders, EngineRequest, EngineResponse } from '../kernel/types.js';
import { writeError } from './node-error.js';
import { hasBody, NodeBody } from './node-body.js';
import { requestSignal } from './node-signal.js';
import { closeAfterAnswer } from './lingering-close.js';
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
 * A Node request as the engine takes it. The signal of its client leaving
 * is made on first ask (most requests never wait on it); a class, because
 * V8 builds an object literal with a getter far slower.
 */
class NodeRequest implements EngineRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: EngineHeaders;
  readonly rawHeaders: readonly string[];
  readonly body: Uint8Array | BodyReader | undefined;
  readonly peer: string | undefined;
  readonly #res: ServerResponse;

  constructor(req: IncomingMessage, res: ServerResponse) {
    this.method = req.method ?? 'GET';
    this.url = req.url ?? '/';
    this.headers = req.headers;
    this.rawHeaders = req.rawHeaders;
    this.body = hasBody(req) ? (parsedBody(req) ?? new NodeBody(req)) : undefined;
    // A Unix domain socket's peer has no address: '' (this machine's, as loopback is). An IPv4 peer is the same client
    // over IPv6 (::ffff:10.0.0.1), as the server's connection cap counts it (node-client-limits.ts).
    const address = req.socket.remoteAddress ?? '';
    this.peer = address.startsWith('::ffff:') ? address.slice(7) : address;
    this.#res = res;
  }

  get signal(): AbortSignal {
    return requestSignal(this.#res);
  }
}

/**
 * The engine's answer on a Node response. A refusal answered before the
 * request's body arrived whole (over the limit, or refused before a byte was
 * read) closes its connection after the answer, once the rest of the body
 * is read and dropped within bounds, so that a client still sending reads
 * it (adapters/lingering-close.ts). A response the server answered already
 * (its parser broke on the body) can take nothing more.
 */
function write(req: IncomingMessage, res: ServerResponse, response: EngineResponse): void {
  if (res.headersSent) {
    if (!res.writableEnded) res.destroy();
    return;
  }
  if (response.status >= 400) closeAfterAnswer(req, res);
  const written = writeEngineResponse(res, response, req.method === 'HEAD');
  // A stream that fails midway (an export whose read broke) can only end the response: its head is sent.
  if (written) written.catch(() => res.destroy());
}

/**
 * The requests a server's middleware is having the engine answer, for a
 * stop that waits for them: once `stop` is called, a new request is not
 * run but given to `refuse` (the sandbox's server answers 503), and `stop`
 * resolves once those under way have their answers. Kept in this file, the
 * middleware's own, so that a request crosses no file more for it.
 */
export class RequestsInFlight {
  private count = 0;
  private stopped: Promise<void> | undefined;
  private wake: (() => void) | undefined;

  constructor(readonly refuse: (req: IncomingMessage, res: ServerResponse) => void) {}

  /** Whether `stop` was called: new requests are refused. */
  get stopping(): boolean {
    return this.stopped !== undefined;
  }

  enter(): void {
    this.count += 1;
  }

  leave(): void {
    this.count -= 1;
    if (this.count === 0) this.wake?.();
  }

  /** Refuses every request from now on; resolves once those under way have their answers. */
  stop(): Promise<void> {
    this.stopped ??= this.count === 0 ? Promise.resolve() : new Promise<void>((resolve) => (this.wake = resolve));
    return this.stopped;
  }
}

/** Where the middleware answers: only the engine's paths (a team's own server), or every request (the sandbox's own server). */
export interface NodeMiddlewareOptions {
  /** Pass every request the engine serves nothing at on with `next()`, its body unread. Default true. */
  passOn?: boolean;
  /** Counts the requests under way, and refuses new ones once it is stopping (the sandbox's own server). */
  inFlight?: RequestsInFlight;
}

/**
 * The engine as Connect middleware: the Node server's way in and the one a
 * team mounts in its own Express, webpack or Vite dev server. The engine's
 * requests (`/v1`, `/__sandbox`, the probes, under the path it is mounted
 * at) are answered through its one `handle`; with `passOn` (the default)
 * every other request goes on with `next()`, its body unread. `engine` may
 * be a promise (a library sandbox being made): requests that come before it
 * is ready wait for it, and if it fails they go to `next(error)`.
 */
export function createNodeMiddleware(engine: Engine | Promise<Engine>, options: NodeMiddlewareOptions = {}): Middleware {
  const { inFlight } = options;
  const passOn = options.passOn !== false;
  const serve = (ready: Engine, req: IncomingMessage, res: ServerResponse) => {
    if (inFlight?.stopping) return inFlight.refuse(req, res);
    try {
      const answer = ready.handle(new NodeRequest(req, res));
      if (answer instanceof Promise) {
        inFlight?.enter();
        // The engine never rejects: its answer ends the request's time in flight.
        void answer.then((response) => {
          inFlight?.leave();
          write(req, res, response);
        });
      } else write(req, res, answer);
    } catch (error) {
      // The engine answers every failure itself: this is a defect of its own, answered as any unexpected one.
      writeError(req, res, error);
    }
  };
  return (req, res, next) => {
    const url = req.url ?? '/';
    if (engine instanceof Promise) {
      // Which paths are its own is known once the engine is: until then only the default ones are let pass.
      engine.then((ready) => (passOn && !ready.serves(url) ? next() : serve(ready, req, res)), next);
      return;
    }
    if (passOn && !engine.serves(url)) return next();
    serve(engine, req, res);
  };
}

/** The targets an app routes to steps of its own: GET and HEAD of the `exact` paths and of paths that begin with one of `prefixes`, in any case. */
export interface OwnTargets {
  exact: readonly string[];
  prefixes: readonly string[];
}

/**
 * Whether an app may route `method` and `url` to a step of its own by
 * `own`: it holds for more targets than the app's routes match, never for
 * fewer. A target that is not in origin form is left to the app to judge.
 */
export function mayRouteOwn(own: OwnTargets, method: string, url: string): boolean {
  if (method !== 'GET' && method !== 'HEAD') return false;
  if (url.charCodeAt(0) !== 47) return true;
  const q = url.indexOf('?');
  const path = (q === -1 ? url : url.slice(0, q)).toLowerCase();
  return own.exact.includes(path) || own.prefixes.some((prefix) => path.startsWith(prefix));
}

/**
 * A Connect handler (an Express app's router, say) as Node's request
 * listener: anything it passes on, or fails with, goes to the one error
 * exit. With `last`, the app's last step (the engine's middleware, which
 * answers everything), a request the app could only route to that step
 * goes to it directly, without the app's walk of its routes.
 */
export function asListener(handler: Middleware, last?: { step: Middleware; own: OwnTargets }): (req: IncomingMessage, res: ServerResponse) => void {
  const fail = (req: IncomingMessage, res: ServerResponse) => (error?: unknown) => writeError(req, res, error);
  if (!last) return (req, res) => handler(req, res, fail(req, res));
  const { step, own } = last;
  return (req, res) => (mayRouteOwn(own, req.method ?? 'GET', req.url ?? '/') ? handler : step)(req, res, fail(req, res));
}
