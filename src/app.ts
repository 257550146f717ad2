import cors from 'cors';
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { parse as parseQuery } from 'node:querystring';
import type { Config, Mode } from './config.js';
import { checkApiKey, createKeyMatcher } from './http/auth.js';
import { createErrorHandler, sendError, toApiError } from './http/error-handler.js';
import { hasBody } from './http/has-body.js';
import { ApiError } from './http/errors.js';
import { verifyJsonBody } from './http/json-body.js';
import { sendJson } from './http/send.js';
import type { Interceptor, ModeHandler, OperationRequest, Reply, Runtime, V1Exchange } from './operation.js';
import type { OperationSpec, Spec } from './openapi/spec.js';
import { formatIssues, type Validators } from './openapi/validate.js';




export interface AppDeps {
  config: Config;
  spec: Spec;
  validators: Validators;
  /** A handler for each mode the sandbox can switch to; `stateful` is required. */
  modes: { stateful: ModeHandler } & Partial<Record<Mode, ModeHandler>>;
  runtime: Runtime;
  /** Run in order after validation; the first reply wins over the mode. */
  interceptors?: Interceptor[];
  /** Extra routers mounted outside /v1, e.g. the control plane at /__sandbox; each answers every request under its path, with its own CORS. */
  extensions?: { path: string; router: express.Router }[];
  /** Called for unexpected (500) failures, with the error; the client sees none of it. */
  onUnexpected?: (error: unknown, req: IncomingMessage) => void;
  /** Called when each /v1 response has been sent (journal, metrics). */
  onResponse?: (event: V1Exchange) => void;
}

/** Headers the spec pins in every documented response of an operation (Deprecation, Sunset, Link on getPet). */
function alwaysHeaders(op: OperationSpec): Record<string, string> {
  const responses = [...op.responses.values()];
  const first = responses[0]?.fixedHeaders ?? {};
  return Object.fromEntries(Object.entries(first).filter(([name, value]) => responses.every((r) => r.fixedHeaders[name] === value)));
}


/** What the finished-response listener reads; Express's `res.locals`, or the same object on a bare response. */
interface ExchangeLocals {
  start: number;
  op?: OperationSpec;
  key?: string;
  body?: unknown;
  /** The response body's JSON text. */
  text?: string;
  /** The request body's bytes, as the JSON parser read them. */
  bytes?: Buffer;
}

type WithLocals = ServerResponse & { locals: ExchangeLocals };

/** One operation's way through the sandbox, shared by its Express route and the fast path. */
interface Route {
  op: OperationSpec;
  /** Headers every documented response of the operation carries, set before anything can fail. */
  pinned: [string, string][];
  /** Validation, interceptors and the mode: the reply to a request that passed auth. */
  reply(input: { params: Record<string, string>; query: Record<string, unknown>; body: unknown; headers: IncomingMessage['headers']; url: string; key: string }): Promise<Reply>;
  /** Writes a reply with the spec's fixed headers for its status. */
  write(res: ServerResponse, reply: Reply): void;
}

/**
 * Builds the sandbox's Express app from injected parts. Creates nothing at
 * import time, opens no file and no port: tests build as many as they like.
 *
 * A request goes one way: CORS -> auth -> spec validation -> mode -> reply,
 * and every failure on the way ends in the one error handler.
 */
export function createApp(deps: AppDeps): express.Express {
  return createHandlers(deps).app;
}

/**
 * The server's request listener: the Express app, behind a fast path that
 * answers the plainest requests to GET operations (an exact path, no body,
 * nothing for Express to decode) with the same route, headers and errors
 * but without Express's per-request machinery. Every other request, and
 * every one the fast path is unsure of, goes to Express untouched.
 */
export function createRequestListener(deps: AppDeps, options: { fastPath?: boolean } = {}): RequestListener {
  const { app, fast } = createHandlers(deps);
  if (options.fastPath === false) return app;
  return (req, res) => {
    if (!fast(req, res)) app(req, res);
  };
}

/** A URL Express would parse the slow way (parseurl's fast path refuses these characters); left to Express. */
const UNUSUAL_URL = /[\t\n\f\r #\u00a0\ufeff]/;

/**
 * The Express app and the fast path in front of it, built on the same
 * routes. `fast` answers a request and returns true, or touches nothing and
 * returns false. Exported for tests of which requests it takes.
 */
export function createHandlers(deps: AppDeps): { app: express.Express; fast: (req: IncomingMessage, res: ServerResponse) => boolean } {
  const { config, spec, validators, runtime } = deps;
  for (const [name, mode] of Object.entries(deps.modes)) {
    for (const op of spec.operations.keys()) if (!mode.operations.has(op)) throw new Error(`Mode ${name} has no handler for spec operation ${op}`);
  }
  const matcher = createKeyMatcher(config.apiKeys);
  // With open keys any well-formed token is accepted (bearerToken() enforces the form).
  const accepts = config.openKeys ? () => true : matcher;
  const authenticate: RequestHandler = (req, res, next) => {
    res.locals.key = checkApiKey(req.headers, accepts);
    next();
  };
  // The journal keeps the bytes as sent (cut when captured), not the parsed body: they are what the client sent, even when they do not parse.
  const keepBytes = deps.onResponse ? (res: ServerResponse, bytes: Buffer) => void ((res as WithLocals).locals.bytes = bytes) : undefined;
  const jsonBody = express.json({ limit: config.bodyLimit, strict: true, type: 'application/json', verify: verifyJsonBody(keepBytes) });

  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  // Extensions come first and answer everything under their path, CORS included: the control plane
  // allows only its own origins, never /v1's (by default any).
  for (const extension of deps.extensions ?? []) app.use(extension.path, extension.router);
  const exposedHeaders = ['Deprecation', 'Sunset', 'Link', 'WWW-Authenticate'];
  const corsHandler = cors({
    origin: config.corsOrigins === '*' ? '*' : [...config.corsOrigins],
    allowedHeaders: ['Authorization', 'Content-Type', 'Prefer', 'Accept', 'X-Sandbox-Key'],
    exposedHeaders,
    maxAge: 600,
  });
  // With any origin allowed, an actual (non-preflight) request gets two constant headers, the
  // same ones the cors package would set; it recomputes them on every request, a cost on the hot path.
  const exposed = exposedHeaders.join(',');
  const anyOrigin = config.corsOrigins === '*';
  const corsHeaders = (res: ServerResponse) => {
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.setHeader('Access-Control-Expose-Headers', exposed);
  };
  app.use(
    anyOrigin ?
      (req, res, next) => {
        if (req.method === 'OPTIONS') return corsHandler(req, res, next);
        corsHeaders(res);
        next();
      }
    : corsHandler,
  );

  const v1 = express.Router({ caseSensitive: true });
  const { onResponse } = deps;
  // One shared listener, no closure per request: the response carries what the event needs.
  const finished =
    onResponse &&
    function (this: ServerResponse) {
      const { op, key, body, text, bytes, start } = (this as WithLocals).locals;
      const req = this.req as IncomingMessage & Partial<Request>;
      onResponse({
        req,
        // The fast path has no Express request: its req.url is the target as sent.
        url: req.originalUrl ?? req.url ?? '',
        requestBytes: bytes,
        op,
        key,
        status: this.statusCode,
        body,
        text,
        durationMs: performance.now() - start,
      });
    };
  if (finished) {
    v1.use((_req, res, next) => {
      res.locals.start = performance.now();
      res.on('finish', finished);
      next();
    });
  }

  const routes: Route[] = [];
  const methodsByPath = new Map<string, string[]>();
  for (const op of spec.operations.values()) {
    methodsByPath.set(op.routePath, [...(methodsByPath.get(op.routePath) ?? []), op.method.toUpperCase()]);
    const validator = validators.request(op);
    const fixedByStatus = new Map([...op.responses].map(([status, r]) => [status, Object.entries(r.fixedHeaders)]));
    const route: Route = {
      op,
      pinned: Object.entries(alwaysHeaders(op)),
      async reply({ params, query, body, headers, url, key }) {
        const path = validator.path(params);
        // A malformed identifier names no animal: the interface's answer for that is 404.
        if (!path.ok) throw ApiError.of('not_found', `No pet with id '${Object.values(params).join('/')}': ${formatIssues(path.issues)}`);
        const checkedQuery = validator.query(query);
        if (!checkedQuery.ok) throw ApiError.of('invalid_request', formatIssues(checkedQuery.issues));
        const checkedBody = validator.body(body);
        if (!checkedBody.ok) throw ApiError.of('invalid_request', formatIssues(checkedBody.issues));
        const request: OperationRequest = { op, key, path: path.value, query: checkedQuery.value, body: checkedBody.value, headers, url };
        for (const intercept of deps.interceptors ?? []) {
          const reply = await intercept(request, runtime.mode);
          if (reply) return reply;
        }
        return (deps.modes[runtime.mode] ?? deps.modes.stateful).handle(request);
      },
      write(res, reply) {
        for (const [name, value] of fixedByStatus.get(reply.status) ?? []) res.setHeader(name, value);
        for (const [name, value] of Object.entries(reply.headers ?? {})) res.setHeader(name, value);
        const locals = (res as WithLocals).locals;
        locals.body = reply.body;
        locals.text = sendJson(res, reply.status, reply.body, reply.json);
      },
    };
    routes.push(route);
    const answer = async (req: Request, res: Response) => {
      const query = req.query as Record<string, unknown>;
      const body = hasBody(req) ? (req.body as unknown) : undefined;
      const reply = await route.reply({ params: req.params as Record<string, string>, query, body, headers: req.headers, url: req.url, key: res.locals.key as string });
      route.write(res, reply);
    };
    const steps: RequestHandler[] = [
      (req, res, next) => {
        res.locals.op = op;
        for (const [name, value] of route.pinned) res.setHeader(name, value);
        // Authenticated in this same step (pinned headers first, so a 401 carries them too): one handler fewer per request.
        res.locals.key = checkApiKey(req.headers, accepts);
        // Without a body to read, the operation is answered from this step too: one handler fewer again.
        if (op.requestBody) next();
        else answer(req, res).catch(next);
      },
    ];
    if (op.requestBody) {
      steps.push(
        (req, _res, next) => {
          if (hasBody(req) && !req.is('application/json')) {
            throw ApiError.of('unsupported_media_type', `Content-Type must be application/json, got '${req.headers['content-type'] ?? 'none'}'.`);
          }
          next();
        },
        jsonBody,
        answer,
      );
    }
    v1[op.method](op.routePath, ...steps);
  }
  for (const [path, methods] of methodsByPath) {
    const allow = [...methods, ...(methods.includes('GET') ? ['HEAD'] : []), 'OPTIONS'].join(', ');
    v1.all(path, authenticate, (req) => {
      throw ApiError.of('method_not_allowed', `${req.method} is not allowed on ${req.baseUrl}${req.path}; allowed: ${allow}.`, { Allow: allow });
    });
  }
  v1.use('/store', authenticate, (req) => {
    throw ApiError.of('not_implemented', `${req.method} ${req.originalUrl.split('?')[0]} is part of the store area, whose methods, parameters and responses the interface does not describe.`);
  });
  v1.use(authenticate, (req) => {
    throw ApiError.of('not_found', `No operation at ${req.method} ${req.originalUrl.split('?')[0]}.`);
  });
  app.use(
    '/v1',
    (req, _res, next) => {
      // A segment whose percent-encoding does not decode would make the router answer 400 before any
      // route, a status getPet does not document: keep such a segment literal (its '%' escaped) instead.
      const { path, search } = splitUrl(req.url);
      if (path.includes('%')) {
        const kept = path.split('/').map((part) => (undecodable(part) ? part.replaceAll('%', '%25') : part)).join('/');
        if (kept !== path) req.url = kept + search;
      }
      next();
    },
    v1,
  );

  app.use((req: Request, _res: Response, next: NextFunction) => {
    next(ApiError.of('not_found', `No route ${req.method} ${req.path}. The Pet Store interface is served under /v1.`));
  });
  const onUnexpected = deps.onUnexpected ?? (() => undefined);
  app.use(createErrorHandler(onUnexpected));

  const match = createGetMatcher(routes);
  const fail = (req: IncomingMessage, res: ServerResponse, error: unknown) => {
    const api = toApiError(error);
    if (api.status >= 500 && !(error instanceof ApiError)) onUnexpected(error, req);
    sendError(res as WithLocals, api);
  };
  const fast = (req: IncomingMessage, res: ServerResponse): boolean => {
    const url = req.url ?? '';
    if (req.method !== 'GET' || UNUSUAL_URL.test(url) || hasBody(req)) return false;
    const { path, search } = splitUrl(url);
    const found = match(path);
    if (!found) return false;
    const { route, params } = found;
    const query = parseQuery(search.slice(1));
    const locals: ExchangeLocals = { start: performance.now(), op: route.op };
    (res as WithLocals).locals = locals;
    if (finished) res.on('finish', finished);
    const go = () => {
      for (const [name, value] of route.pinned) res.setHeader(name, value);
      try {
        locals.key = checkApiKey(req.headers, accepts);
      } catch (error) {
        fail(req, res, error);
        return;
      }
      route
        .reply({ params, query, body: undefined, headers: req.headers, url: url.slice('/v1'.length), key: locals.key })
        .then((reply) => route.write(res, reply))
        .catch((error: unknown) => fail(req, res, error));
    };
    if (anyOrigin) {
      corsHeaders(res);
      go();
    } else corsHandler(req, res, go);
    return true;
  };
  return { app, fast };
}

/** A request target's path, and its query string with the `?` (or ''). */
function splitUrl(url: string): { path: string; search: string } {
  const q = url.indexOf('?');
  return q === -1 ? { path: url, search: '' } : { path: url.slice(0, q), search: url.slice(q) };
}

/** A path segment, percent-decoded; as it is when its encoding does not decode (then it names nothing). */
function decodeSegment(part: string): string {
  if (!part.includes('%')) return part;
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

const undecodable = (part: string): boolean => part.includes('%') && decodeSegment(part) === part;

/**
 * Finds the GET route Express would pick for an exact path under `/v1`, in
 * the order routes are registered, with its decoded parameters. Undefined for
 * anything else (a trailing or double slash), which is then Express's to answer.
 */
function createGetMatcher(routes: Route[]): (path: string) => { route: Route; params: Record<string, string> } | undefined {
  const compiled = routes
    .filter((r) => r.op.method === 'get')
    .map((route) => ({ route, segments: `/v1${route.op.routePath}`.split('/').map((s) => (s.startsWith(':') ? { param: s.slice(1) } : s)) }));
  return (path) => {
    const parts = path.split('/');
    for (const { route, segments } of compiled) {
      if (segments.length !== parts.length) continue;
      const params: Record<string, string> = {};
      let ok = true;
      for (let i = 0; i < segments.length && ok; i++) {
        const segment = segments[i] as string | { param: string };
        const part = parts[i] as string;
        if (typeof segment === 'string') ok = segment === part;
        else if (part === '') ok = false;
        else params[segment.param] = decodeSegment(part);
      }
      if (ok) return { route, params };
    }
    return undefined;
  };
}
