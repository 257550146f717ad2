import cors from 'cors';
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import type { Config, Mode } from './config.js';
import { checkApiKey, createKeyMatcher } from './http/auth.js';
import { createErrorHandler } from './http/error-handler.js';
import { hasBody } from './http/has-body.js';
import { ApiError } from './http/errors.js';
import { limitJsonDepth } from './http/json-depth.js';
import { sendJson } from './http/send.js';
import type { ModeHandler, OperationRequest, Reply } from './modes/types.js';
import type { OperationSpec, Spec } from './openapi/spec.js';
import { formatIssues, type Validators } from './openapi/validate.js';

/**
 * A step between validation and the mode: it may answer instead of the mode
 * (a forced fault, `Prefer: code=...`) or let the request through (undefined).
 */
export type Interceptor = (request: OperationRequest, mode: Mode) => Promise<Reply | undefined> | Reply | undefined;

/** A finished /v1 request and what it was answered. */
export interface V1Exchange {
  req: Request;
  /** The operation matched, if any. */
  op: OperationSpec | undefined;
  /** The API key, when it was accepted. */
  key: string | undefined;
  status: number;
  /** The response body as sent (before serialization). */
  body: unknown;
  durationMs: number;
}

/** State that can change while the sandbox runs. */
export interface Runtime {
  mode: Mode;
}

export interface AppDeps {
  config: Config;
  spec: Spec;
  validators: Validators;
  /** A handler for each mode the sandbox can switch to; `stateful` is required. */
  modes: { stateful: ModeHandler } & Partial<Record<Mode, ModeHandler>>;
  runtime: Runtime;
  /** Run in order after validation; the first reply wins over the mode. */
  interceptors?: Interceptor[];
  /** Extra routers mounted outside /v1, e.g. the control plane at /__sandbox. */
  extensions?: { path: string; router: express.Router }[];
  /** Called for unexpected (500) failures, with the error; the client sees none of it. */
  onUnexpected?: (error: unknown, req: Request) => void;
  /** Called when each /v1 response has been sent (journal, metrics). */
  onResponse?: (event: V1Exchange) => void;
}

/** Headers the spec pins in every documented response of an operation (Deprecation, Sunset, Link on getPet). */
function alwaysHeaders(op: OperationSpec): Record<string, string> {
  const responses = [...op.responses.values()];
  const first = responses[0]?.fixedHeaders ?? {};
  return Object.fromEntries(Object.entries(first).filter(([name, value]) => responses.every((r) => r.fixedHeaders[name] === value)));
}


/**
 * Builds the sandbox's Express app from injected parts. Creates nothing at
 * import time, opens no file and no port: tests build as many as they like.
 *
 * A request goes one way: CORS -> auth -> spec validation -> mode -> reply,
 * and every failure on the way ends in the one error handler.
 */
export function createApp(deps: AppDeps): express.Express {
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
  const jsonBody = express.json({ limit: config.bodyLimit, strict: true, type: 'application/json', verify: limitJsonDepth() });

  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
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
  app.use(
    config.corsOrigins === '*' ?
      (req, res, next) => {
        if (req.method === 'OPTIONS') return corsHandler(req, res, next);
        res.setHeader('Access-Control-Allow-Origin', '*');
        res.setHeader('Access-Control-Expose-Headers', exposed);
        next();
      }
    : corsHandler,
  );

  const v1 = express.Router({ caseSensitive: true });
  const { onResponse } = deps;
  if (onResponse) {
    // One shared listener, no closure per request: the response carries what the event needs.
    const finished = function (this: Response) {
      const { op, key, body, start } = this.locals as { op?: OperationSpec; key?: string; body?: unknown; start: number };
      onResponse({ req: this.req, op, key, status: this.statusCode, body, durationMs: performance.now() - start });
    };
    v1.use((_req, res, next) => {
      res.locals.start = performance.now();
      res.on('finish', finished);
      next();
    });
  }
  const methodsByPath = new Map<string, string[]>();
  for (const op of spec.operations.values()) {
    methodsByPath.set(op.routePath, [...(methodsByPath.get(op.routePath) ?? []), op.method.toUpperCase()]);
    const validator = validators.request(op);
    const headers = Object.entries(alwaysHeaders(op));
    const fixedByStatus = new Map([...op.responses].map(([status, r]) => [status, Object.entries(r.fixedHeaders)]));
    const steps: RequestHandler[] = [
      (req, res, next) => {
        res.locals.op = op;
        for (const [name, value] of headers) res.setHeader(name, value);
        // Authenticated in this same step (pinned headers first, so a 401 carries them too): one handler fewer per request.
        res.locals.key = checkApiKey(req.headers, accepts);
        // Without a body to read, the operation is answered from this step too: one handler fewer again.
        if (op.requestBody) next();
        else answer(req, res).catch(next);
      },
    ];
    if (op.requestBody) {
      steps.push((req, _res, next) => {
        if (hasBody(req) && !req.is('application/json')) {
          throw ApiError.of('unsupported_media_type', `Content-Type must be application/json, got '${req.headers['content-type'] ?? 'none'}'.`);
        }
        next();
      }, jsonBody);
    }
    const answer = async (req: Request, res: Response) => {
      const path = validator.path(req.params as Record<string, string>);
      // A malformed identifier names no animal: the interface's answer for that is 404.
      if (!path.ok) throw ApiError.of('not_found', `No pet with id '${Object.values(req.params).join('/')}': ${formatIssues(path.issues)}`);
      const query = validator.query(req.query as Record<string, unknown>);
      if (!query.ok) throw ApiError.of('invalid_request', formatIssues(query.issues));
      const body = validator.body(hasBody(req) ? req.body : undefined);
      if (!body.ok) throw ApiError.of('invalid_request', formatIssues(body.issues));
      const key = res.locals.key as string;
      const request: OperationRequest = { op, key, path: path.value, query: query.value, body: body.value, headers: req.headers, url: req.url };
      let reply: Reply | undefined;
      for (const intercept of deps.interceptors ?? []) {
        reply = await intercept(request, runtime.mode);
        if (reply) break;
      }
      reply ??= await (deps.modes[runtime.mode] ?? deps.modes.stateful).handle(request);
      for (const [name, value] of fixedByStatus.get(reply.status) ?? []) res.setHeader(name, value);
      for (const [name, value] of Object.entries(reply.headers ?? {})) res.setHeader(name, value);
      res.locals.body = reply.body;
      sendJson(res, reply.status, reply.body);
    };
    if (op.requestBody) steps.push(answer);
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
  app.use('/v1', v1);

  for (const extension of deps.extensions ?? []) app.use(extension.path, extension.router);
  app.use((req: Request, _res: Response, next: NextFunction) => {
    next(ApiError.of('not_found', `No route ${req.method} ${req.path}. The Pet Store interface is served under /v1.`));
  });
  app.use(createErrorHandler(deps.onUnexpected ?? (() => undefined)));
  return app;
}
