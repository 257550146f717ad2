import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { Config } from '../config/load.js';
import { Exchange } from '../core/exchange.js';
import { underV1, type Target } from '../core/match.js';
import type { EngineRequest, EngineResponse } from '../core/types.js';
import type { V1Engine } from '../core/v1-engine.js';
import { hasBody } from '../http/has-body.js';
import { readBody } from '../http/read-json-body.js';
import { requestSignal } from '../http/request-signal.js';
import type { Forwarder } from './node-forward.js';
import { writeEngineResponse } from './node-response.js';

/**
 * A Node request as the engine takes it. The signal of its client leaving
 * is made on first ask (most requests never wait on it); a class, because
 * V8 builds an object literal with a getter far slower.
 */
class NodeEngineRequest implements EngineRequest {
  readonly method: string;
  readonly headers: IncomingHttpHeaders;
  body: Uint8Array | undefined = undefined;
  readonly #res: ServerResponse;

  constructor(
    req: IncomingMessage,
    res: ServerResponse,
    readonly url: string,
  ) {
    this.method = req.method ?? 'GET';
    this.headers = req.headers;
    this.#res = res;
  }

  get signal(): AbortSignal {
    return requestSignal(this.#res);
  }
}

/**
 * The engine's answer on a Node response. A request answered before its
 * body arrived whole (a refusal while it was still arriving) closes its
 * connection after the answer: the rest of the body is never read. A
 * response the server answered already (its parser broke on the body) can
 * take nothing more.
 */
function write(req: IncomingMessage, res: ServerResponse, response: EngineResponse): void {
  if (res.headersSent) {
    if (!res.writableEnded) res.destroy();
    return;
  }
  if (response.status >= 400 && !req.complete) res.shouldKeepAlive = false;
  void writeEngineResponse(res, response);
}

/** A URL Express would parse the slow way (parseurl's fast path refuses these characters); left to Express. */
const UNUSUAL_URL = /[\t\n\f\r #\u00a0\ufeff]/;

/** The Node server's way into the engine: the fast path's branch, and Express's `/v1` mount. */
export interface NodeV1 {
  /** Serves a request under /v1 with the target `url` as sent. */
  serve(req: IncomingMessage, res: ServerResponse, url: string): void;
  /** Takes a /v1 request with a plain URL and returns true, or touches nothing and returns false. */
  fast(req: IncomingMessage, res: ServerResponse): boolean;
}

/**
 * The Node adapter of the /v1 engine: builds the engine's request from
 * `req`, reads a body the engine admits with the Node reader (decoded and
 * size-limited as it streams; the media type, auth and route checked before
 * a byte is read), and writes the engine's answer. Proxy mode is this
 * adapter's branch: it forwards bytes as sent.
 */
export function createNodeV1(engine: V1Engine, forwarder: Forwarder, config: Pick<Config, 'bodyLimit'>): NodeV1 {
  const settle = (req: IncomingMessage, res: ServerResponse, response: EngineResponse | Promise<EngineResponse>) => {
    if (response instanceof Promise) void response.then((r) => write(req, res, r));
    else write(req, res, response);
  };

  function serve(req: IncomingMessage, res: ServerResponse, url: string): void {
    const request = new NodeEngineRequest(req, res, url);
    const ex = engine.begin(request);
    if (!(ex instanceof Exchange)) return write(req, res, ex);
    if (forwarder.forwarding()) return forwarder.forward(req, res, ex, (r) => write(req, res, r));
    const bodyComing = hasBody(req);
    const refused = engine.admit(ex, bodyComing);
    if (refused) return write(req, res, refused);
    if (!bodyComing || !(ex.target as Target).route.readsBody) return settle(req, res, engine.complete(ex, undefined));
    readBody(req, config.bodyLimit).then(
      (bytes) => {
        request.body = bytes;
        settle(req, res, engine.complete(ex, bytes));
      },
      (error: unknown) => write(req, res, engine.fail(ex, error)),
    );
  }

  function fast(req: IncomingMessage, res: ServerResponse): boolean {
    const url = req.url ?? '';
    if (!underV1(url) || UNUSUAL_URL.test(url)) return false;
    serve(req, res, url);
    return true;
  }

  return { serve, fast };
}
