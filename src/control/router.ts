import express, { type RequestHandler } from 'express';
import { bearerToken, createKeyMatcher } from '../http/auth.js';
import { ApiError } from '../http/errors.js';
import { hasBody } from '../http/has-body.js';
import { verifyJsonBody } from '../http/json-body.js';
import { sendJson, sendJsonStream } from '../http/send.js';
import { loadSpec, type Spec } from '../openapi/spec.js';
import { controlCors } from './cors.js';
import { createControlHandlers, JsonPieces, type ControlCall, type ControlDeps } from './handlers.js';
import { createControlChecks, loadControlSpec } from './request-checks.js';
import { CONTROL_ROUTES, expressPath, type ControlOperationId, type ControlRoute } from './routes.js';

export type { ControlDeps } from './handlers.js';

export interface ControlRouterOptions extends ControlDeps {
  /** spec/sandbox-control.yaml; loaded (and checked against the route table) when not given. */
  controlSpec?: Spec;
  /** spec/openapi.yaml, whose Pet schema the control spec refers to; loaded when not given. */
  interfaceSpec?: Spec;
  /** Brings shared state (the mode, faults) up to date before an operation; absent when nothing is shared. */
  sync?: () => void | Promise<void>;
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

/** JSON bodies of POST and PUT, with the checks of /v1 bodies (UTF-8, no byte order mark, nesting); GET and DELETE ignore any body. */
function jsonBodies(): RequestHandler {
  const parseJson = express.json({ limit: CONTROL_BODY_LIMIT, verify: verifyJsonBody() });
  return (req, res, next) => {
    if (req.method !== 'POST' && req.method !== 'PUT') return next();
    // A chunked body has no Content-Length: without this it would be ignored and the request run as if bodiless.
    if (hasBody(req) && !req.is('application/json')) throw ApiError.of('unsupported_media_type', 'Control requests with a body must be application/json.');
    parseJson(req, res, next);
  };
}

/**
 * The control plane under /__sandbox (described in spec/sandbox-control.yaml),
 * its routes built from the route table: each request is checked against its
 * operation in the spec, then handed to that operation's handler, which acts
 * on the sandbox's state. It is protected by the admin token, never by an API
 * key, and acts on the workspace of the API key in `X-Sandbox-Key` (default:
 * the first configured key).
 */
export function createControlRouter(options: ControlRouterOptions): express.Router {
  const spec = options.controlSpec ?? loadControlSpec();
  const check = createControlChecks(spec, [options.interfaceSpec ?? loadSpec()]);
  const handlers = createControlHandlers(options);
  const router = express.Router();
  router.use(controlCors(options.config.controlCorsOrigins));

  const route =
    <K extends ControlOperationId>(operationId: K): RequestHandler =>
    async (req, res) => {
      // Express 5 leaves req.body undefined when no body was parsed.
      const checked = check(operationId, {
        headers: req.headers,
        query: req.query as Record<string, unknown>,
        params: req.params as Record<string, string>,
        body: req.body as unknown,
      });
      // An API key that opened the operation names the workspace itself.
      if (typeof res.locals.apiKey === 'string') checked.key = res.locals.apiKey;
      await options.sync?.();
      // Checked against the operation in the spec, so it has the types generated from it.
      const answer: unknown = await handlers[operationId](checked as unknown as ControlCall<K>);
      const { status } = CONTROL_ROUTES[operationId];
      if (answer instanceof JsonPieces) await sendJsonStream(res, status, answer.pieces);
      else sendJson(res, status, answer);
    };
  const ids = Object.keys(CONTROL_ROUTES) as ControlOperationId[];
  const add = (operationId: ControlOperationId, ...before: RequestHandler[]) => {
    const r: ControlRoute = CONTROL_ROUTES[operationId];
    router[
      r.method === 'GET' ? 'get'
      : r.method === 'PUT' ? 'put'
      : r.method === 'POST' ? 'post'
      : 'delete'
    ](expressPath(r), ...before, route(operationId));
  };
  const opensWithKey = (id: ControlOperationId) => (CONTROL_ROUTES[id] as ControlRoute).apiKey === true;
  // Operations without a credential first, then those an API key opens too; the admin check guards the rest.
  for (const id of ids) if (!CONTROL_ROUTES[id].admin) add(id);
  for (const id of ids) if (opensWithKey(id)) add(id, adminOrApiKey(options.config), jsonBodies());
  router.use(adminOnly(options.config.adminToken, options.config.apiKeys));
  router.use(jsonBodies());
  for (const id of ids) if (CONTROL_ROUTES[id].admin && !opensWithKey(id)) add(id);
  router.use((req) => {
    throw ApiError.of('not_found', `No control operation ${req.method} /__sandbox${req.path}.`);
  });
  return router;
}
