import express, { type RequestHandler } from 'express';
import { bearerToken, createKeyMatcher } from '../http/auth.js';
import { ApiError } from '../http/errors.js';
import { hasBody } from '../http/has-body.js';
import { readJsonBody } from '../http/read-json-body.js';
import { requestSignal } from '../http/request-signal.js';
import { sendJson, sendJsonStream } from '../http/send.js';
import { loadSpec, type Spec } from '../openapi/spec.js';
import { controlCors } from './cors.js';
import { EventStream, sendEventStream } from './event-stream.js';
import { JsonPieces, TextAnswer, type ControlCall, type ControlDeps } from './handler-types.js';
import { createControlHandlers } from './handlers.js';
import { createControlChecks, loadControlSpec } from './request-checks.js';
import { CONTROL_ROUTES, expressPath, type ControlOperationId, type ControlRoute } from './routes.js';

export type { ControlDeps } from './handler-types.js';

export interface ControlRouterOptions extends ControlDeps {
  /** spec/sandbox-control.yaml; loaded (and checked against the route table) when not given. */
  controlSpec?: Spec;
  /** spec/openapi.yaml, whose Pet schema the control spec refers to; loaded when not given. */
  interfaceSpec?: Spec;
  /** Brings shared state (the mode, faults) up to date before an operation; absent when nothing is shared. */
  sync?: (key?: string) => void | Promise<void>;
}

/** Fixture sets and exports can be large: 10,000 pets and more. */
const CONTROL_BODY_LIMIT = 64 * 1024 * 1024;

/** Only an admin token opens the control plane: none is 401, an API key or a wrong token 403. */
function adminOnly(adminToken: string, apiKeys: readonly string[]): RequestHandler {
  const isAdmin = createKeyMatcher([adminToken]);
  const isApiKey = createKeyMatcher(apiKeys);
  return (req, _res, next) => {
    const token = bearerToken(req.headers);
    if (token === undefined)
      throw ApiError.of('unauthorized', 'The control plane needs the admin token: Authorization: Bearer <admin token>.', {
        'WWW-Authenticate': 'Bearer realm="sandbox-control"',
      });
    if (!isAdmin(token))
      throw ApiError.of('forbidden', isApiKey(token) ? 'API keys cannot use the control plane; send the admin token.' : 'Wrong admin token.');
    next();
  };
}

/**
 * For operations an API key opens too (`apiKey` in the route table): the
 * admin token as everywhere, or an API key, which acts on its own workspace
 * only (kept in `res.locals.apiKey`). With `--open-keys` any well-formed
 * token is an API key, as on `/v1`.
 */
function adminOrApiKey(config: ControlDeps['config']): RequestHandler {
  const isAdmin = createKeyMatcher([config.adminToken]);
  const isApiKey = config.openKeys ? () => true : createKeyMatcher(config.apiKeys);
  return (req, res, next) => {
    const token = bearerToken(req.headers);
    if (token === undefined)
      throw ApiError.of('unauthorized', 'Send the admin token or an API key: Authorization: Bearer <token>.', {
        'WWW-Authenticate': 'Bearer realm="sandbox-control"',
      });
    if (isAdmin(token)) return next();
    if (!isApiKey(token)) throw ApiError.of('forbidden', 'Neither the admin token nor an API key.');
    const named = req.headers['x-sandbox-key'];
    if (named !== undefined && named !== token)
      throw ApiError.of('forbidden', 'An API key acts on its own workspace only; leave X-Sandbox-Key out or send the admin token.');
    res.locals.apiKey = token;
    next();
  };
}

/** With `--metrics-token`, only that token opens `/metrics`: none is 401, any other 403. Without one, nothing is asked. */
function metricsTokenOnly(token: string | undefined): RequestHandler[] {
  if (token === undefined) return [];
  const isToken = createKeyMatcher([token]);
  return [
    (req, _res, next) => {
      const given = bearerToken(req.headers);
      if (given === undefined)
        throw ApiError.of('unauthorized', '/metrics needs the metrics token: Authorization: Bearer <metrics token>.', {
          'WWW-Authenticate': 'Bearer realm="sandbox-metrics"',
        });
      if (!isToken(given)) throw ApiError.of('forbidden', 'Wrong metrics token.');
      next();
    },
  ];
}

/**
 * JSON bodies of POST and PUT, read as /v1 reads them (UTF-8, no byte order
 * mark, nesting, an int64 past 2^53 kept exactly: a fixture's categoryId);
 * GET and DELETE ignore any body.
 */
function jsonBodies(): RequestHandler {
  return (req, _res, next) => {
    if (req.method !== 'POST' && req.method !== 'PUT') return next();
    // A chunked body has no Content-Length: without this it would be ignored and the request run as if bodiless.
    if (hasBody(req) && !req.is('application/json')) throw ApiError.of('unsupported_media_type', 'Control requests with a body must be application/json.');
    readJsonBody(req, CONTROL_BODY_LIMIT).then((body) => {
      req.body = body;
      next();
    }, next);
  };
}

type Route = <K extends ControlOperationId>(operationId: K) => RequestHandler;

/** Each operation's handler for Express: the request checked against the spec, the operation run, its answer sent. */
function createRoute(options: ControlRouterOptions): Route {
  const spec = options.controlSpec ?? loadControlSpec();
  const check = createControlChecks(spec, [options.interfaceSpec ?? loadSpec()]);
  const handlers = createControlHandlers(options);
  return (operationId) => async (req, res) => {
    // Read by the request log and the metrics.
    res.locals.operation = operationId;
    // Watched from before the first wait: what is started after it (a live tail) stops when the client has left meanwhile.
    requestSignal(res);
    // Express 5 leaves req.body undefined when no body was parsed.
    const checked = check(operationId, {
      headers: req.headers,
      query: req.query as Record<string, unknown>,
      params: req.params as Record<string, string>,
      body: req.body as unknown,
    });
    // An API key that opened the operation names the workspace itself.
    if (typeof res.locals.apiKey === 'string') checked.key = res.locals.apiKey;
    await options.sync?.(checked.key);
    // Checked against the operation in the spec, so it has the types generated from it.
    const answer: unknown = await handlers[operationId](checked as unknown as ControlCall<typeof operationId>);
    const { status } = CONTROL_ROUTES[operationId];
    if (answer instanceof EventStream) sendEventStream(res, answer);
    else if (answer instanceof JsonPieces) await sendJsonStream(res, status, answer.pieces);
    else if (answer instanceof TextAnswer) res.status(status).type(answer.contentType).send(answer.text);
    else sendJson(res, status, answer);
  };
}

/** Adds an operation's route to `router`, after `before`. */
function addRoute(router: express.Router, route: Route, operationId: ControlOperationId, ...before: RequestHandler[]): void {
  const r: ControlRoute = CONTROL_ROUTES[operationId];
  const method =
    r.method === 'GET' ? 'get'
    : r.method === 'PUT' ? 'put'
    : r.method === 'POST' ? 'post'
    : 'delete';
  router[method](expressPath(r), ...before, route(operationId));
}

const ids = Object.keys(CONTROL_ROUTES) as ControlOperationId[];
const isRoot = (id: ControlOperationId) => (CONTROL_ROUTES[id] as ControlRoute).root === true;

/**
 * The control plane under /__sandbox (described in spec/sandbox-control.yaml),
 * its routes built from the route table: each request is checked against its
 * operation in the spec, then handed to that operation's handler, which acts
 * on the sandbox's state. It is protected by the admin token, never by an API
 * key, and acts on the workspace of the API key in `X-Sandbox-Key` (default:
 * the first configured API key). The operations served at the root are the
 * root router's.
 */
export function createControlRouter(options: ControlRouterOptions, route: Route = createRoute(options)): express.Router {
  const router = express.Router();
  router.use(controlCors(options.config.controlCorsOrigins));
  const under = ids.filter((id) => !isRoot(id));
  const opensWithKey = (id: ControlOperationId) => (CONTROL_ROUTES[id] as ControlRoute).apiKey === true;
  // Operations without a credential first, then those an API key opens too; the admin check guards the rest.
  for (const id of under) if (!CONTROL_ROUTES[id].admin) addRoute(router, route, id);
  for (const id of under) if (opensWithKey(id)) addRoute(router, route, id, adminOrApiKey(options.config), jsonBodies());
  router.use(adminOnly(options.config.adminToken, options.config.apiKeys));
  router.use(jsonBodies());
  for (const id of under) if (CONTROL_ROUTES[id].admin && !opensWithKey(id)) addRoute(router, route, id);
  router.use((req) => {
    throw ApiError.of('not_found', `No control operation ${req.method} /__sandbox${req.path}.`);
  });
  return router;
}

/**
 * The operations served at the root, beside `/v1` (the probes, the
 * metrics): only their own paths, so every other request goes on to the
 * rest of the app. Built with the control plane, from the same table.
 */
export function createControlRouters(options: ControlRouterOptions): { control: express.Router; root: express.Router } {
  const route = createRoute(options);
  const root = express.Router();
  const guard = metricsTokenOnly(options.config.metricsToken);
  for (const id of ids) if (isRoot(id)) addRoute(root, route, id, ...((CONTROL_ROUTES[id] as ControlRoute).metricsToken ? guard : []));
  return { control: createControlRouter(options, route), root };
}
