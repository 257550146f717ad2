import cors from 'cors';
import express, { type Request, type RequestHandler } from 'express';
import type { Runtime } from '../operation.js';
import { MODES, type Config, type Mode } from '../config.js';
import { bearerToken, createKeyMatcher } from '../http/auth.js';
import { ApiError } from '../http/errors.js';
import { hasBody } from '../http/has-body.js';
import { verifyJsonBody } from '../http/json-body.js';
import { sendJson, sendJsonStream } from '../http/send.js';
import type { SchemaCheck } from '../openapi/validate.js';
import type { Workspaces } from '../store/workspaces.js';
import type { Faults, FaultInput } from '../interceptors/faults.js';
import { fixtureNames, readFixture, resolveFixture } from './fixtures.js';
import { UNAUTHENTICATED, type Journal } from './journal.js';
import { checkResetOptions, exportJson, loadWorkspace, resetWorkspace } from './operations.js';

export interface ControlDeps {
  config: Config;
  runtime: Runtime;
  workspaces: Workspaces;
  journal: Journal;
  faults: Faults;
  checkPet: SchemaCheck;
  version: string;
  startedAt: number;
  /** Makes a mode ready to answer (Prism loads on first use); awaited before a switch takes effect. */
  prepareMode?: (mode: Mode) => Promise<void>;
}

/** Fixture sets and exports can be large: 10,000 pets and more. */
const CONTROL_BODY_LIMIT = 64 * 1024 * 1024;

/**
 * CORS for the origins `--control-cors-origins` names, and for no other: a
 * page from anywhere else gets no Access-Control-* header at all, not even on
 * a preflight, so a browser never lets it drive a developer's sandbox.
 */
function controlCors(origins: readonly string[]): RequestHandler {
  const allowed = new Set(origins);
  const handler = cors({
    origin: (origin, callback) => callback(null, origin !== undefined && allowed.has(origin) ? origin : false),
    methods: ['GET', 'PUT', 'POST', 'DELETE'],
    allowedHeaders: ['Authorization', 'Content-Type', 'X-Sandbox-Key'],
    maxAge: 600,
  });
  return (req, res, next) => {
    if (allowed.size === 0) return next();
    // A listed origin is answered by name; Vary keeps a cache from serving it to another.
    res.vary('Origin');
    handler(req, res, next);
  };
}

/**
 * The control plane under /__sandbox (described in spec/sandbox-control.yaml).
 * It is protected by the admin token, never by an API key, and acts on the
 * workspace of the API key in `X-Sandbox-Key` (default: the first configured key).
 */
export function createControlRouter(deps: ControlDeps): express.Router {
  const { config, runtime, workspaces, journal, faults, checkPet } = deps;
  const isAdmin = createKeyMatcher([config.adminToken]);
  const isApiKey = createKeyMatcher(config.apiKeys);
  const router = express.Router();
  router.use(controlCors(config.controlCorsOrigins));

  const admin: RequestHandler = (req, _res, next) => {
    const token = bearerToken(req.headers);
    if (token === undefined) throw ApiError.of('unauthorized', 'The control plane needs the admin token: Authorization: Bearer <admin token>.', { 'WWW-Authenticate': 'Bearer realm="sandbox-control"' });
    if (!isAdmin(token)) throw ApiError.of('forbidden', isApiKey(token) ? 'API keys cannot use the control plane; send the admin token.' : 'Wrong admin token.');
    next();
  };
  /** The API key whose workspace a control request acts on. */
  const keyOf = (req: Request): string => {
    const raw = req.headers['x-sandbox-key'];
    if (raw === undefined) return config.apiKeys[0] as string;
    const key = Array.isArray(raw) ? raw[0] : raw;
    if (!key || !bearerToken({ authorization: `Bearer ${key}` })) throw ApiError.of('invalid_request', 'X-Sandbox-Key must be a well-formed API key.');
    if (!config.openKeys && !isApiKey(key)) throw ApiError.of('not_found', 'X-Sandbox-Key is not one of the configured API keys, so it has no workspace.');
    return key;
  };
  const summary = (key: string) => workspaces.use(key, (store) => ({ workspace: workspaces.idOf(key), count: store.size, nextId: store.nextId }));
  const body = (req: Request): Record<string, unknown> => {
    const b: unknown = req.body;
    if (b === undefined) return {};
    if (!b || typeof b !== 'object' || Array.isArray(b)) throw ApiError.of('invalid_request', 'The request body must be a JSON object.');
    return b as Record<string, unknown>;
  };

  router.get('/health', (_req, res) => {
    sendJson(res, 200, { status: 'ok', mode: runtime.mode, version: deps.version, uptimeSeconds: Math.round((Date.now() - deps.startedAt) / 1000) });
  });
  router.use(admin);
  // The checks of /v1 bodies too (UTF-8, no byte order mark, nesting): no control body needs more, and deeper values broke error messages.
  const parseJson = express.json({ limit: CONTROL_BODY_LIMIT, verify: verifyJsonBody() });
  // Only POST and PUT take a body; GET and DELETE ignore whatever is sent.
  router.use((req, res, next) => {
    if (req.method !== 'POST' && req.method !== 'PUT') return next();
    // A chunked body has no Content-Length: without this it would be ignored and the request run as if bodiless.
    if (hasBody(req) && !req.is('application/json')) throw ApiError.of('unsupported_media_type', 'Control requests with a body must be application/json.');
    parseJson(req, res, next);
  });

  router.get('/mode', (_req, res) => sendJson(res, 200, { mode: runtime.mode, modes: MODES }));
  router.put('/mode', async (req, res) => {
    const mode = body(req).mode;
    if (!(MODES as readonly unknown[]).includes(mode)) throw ApiError.of('invalid_request', `"mode" must be one of ${MODES.join(', ')}.`);
    await deps.prepareMode?.(mode as Mode);
    runtime.mode = mode as Mode;
    sendJson(res, 200, { mode: runtime.mode, modes: MODES });
  });

  router.get('/workspaces', async (_req, res) => {
    const keys = config.openKeys ? [] : config.apiKeys;
    const list = await Promise.all(keys.map(summary));
    sendJson(res, 200, { workspaces: list, open: workspaces.openIds() });
  });
  router.get('/fixtures', async (_req, res) => sendJson(res, 200, { fixtures: await fixtureNames() }));

  router.post('/reset', async (req, res) => {
    const b = body(req);
    const options = checkResetOptions({ seed: b.seed === undefined ? config.seed : b.seed, count: b.count === undefined ? config.count : b.count, empty: b.empty });
    const key = keyOf(req);
    await workspaces.use(key, (store) => resetWorkspace(store, options));
    sendJson(res, 200, await summary(key));
  });

  router.post('/load', async (req, res) => {
    const b = body(req);
    const mode = b.mode ?? 'replace';
    if (mode !== 'replace' && mode !== 'append') throw ApiError.of('invalid_request', '"mode" must be "replace" or "append".');
    if ((b.fixture === undefined) === (b.pets === undefined && b.generate === undefined)) {
      throw ApiError.of('invalid_request', 'Send either "fixture" (a name from fixtures/) or a fixture set ("pets" or "generate").');
    }
    if (b.fixture !== undefined && typeof b.fixture !== 'string') throw ApiError.of('invalid_request', '"fixture" must be the name of a fixture set.');
    const set = typeof b.fixture === 'string' ? await readFixture(b.fixture) : b;
    const { pets, nextId } = resolveFixture(set, checkPet);
    const key = keyOf(req);
    await workspaces.use(key, (store) => loadWorkspace(store, pets, nextId, mode));
    sendJson(res, 200, await summary(key));
  });

  router.get('/export', async (req, res) => {
    await workspaces.use(keyOf(req), (store) => sendJsonStream(res, 200, exportJson(store)));
  });

  const journalLimit = (req: Request): number => {
    const raw = req.query.limit;
    // Number('') is 0 and Number(' 5') is 5: only digits are a limit.
    const limit = raw === undefined ? config.journalSize : typeof raw === 'string' && /^\d+$/.test(raw) ? Number(raw) : NaN;
    if (!Number.isInteger(limit) || limit < 0) throw ApiError.of('invalid_request', 'Query parameter \'limit\' must be a non-negative integer.');
    return limit;
  };
  router.get('/journal', (req, res) => {
    const limit = journalLimit(req);
    const ws = workspaces.idOf(keyOf(req));
    sendJson(res, 200, { workspace: ws, size: config.journalSize, memory: journal.memory(), entries: journal.read(ws, limit) });
  });
  router.delete('/journal', (req, res) => {
    const ws = workspaces.idOf(keyOf(req));
    sendJson(res, 200, { workspace: ws, cleared: journal.clear(ws) });
  });
  // Requests without a valid API key: a journal of their own, outside every workspace (X-Sandbox-Key does not apply).
  router.get('/journal/unauthenticated', (req, res) => {
    const limit = journalLimit(req);
    sendJson(res, 200, { size: config.journalSize, memory: journal.memory(), entries: journal.read(UNAUTHENTICATED, limit) });
  });
  router.delete('/journal/unauthenticated', (_req, res) => sendJson(res, 200, { cleared: journal.clear(UNAUTHENTICATED) }));

  router.get('/faults', (req, res) => {
    const ws = workspaces.idOf(keyOf(req));
    sendJson(res, 200, { workspace: ws, faults: faults.list(ws) });
  });
  router.post('/faults', (req, res) => {
    const ws = workspaces.idOf(keyOf(req));
    sendJson(res, 201, faults.add(ws, body(req) as unknown as FaultInput));
  });
  router.delete('/faults', (req, res) => {
    const ws = workspaces.idOf(keyOf(req));
    sendJson(res, 200, { workspace: ws, cleared: faults.clear(ws) });
  });
  router.delete('/faults/:id', (req, res) => {
    const ws = workspaces.idOf(keyOf(req));
    const cleared = faults.clear(ws, Number(req.params.id));
    if (cleared === 0) throw ApiError.of('not_found', `No fault ${req.params.id} in this workspace.`);
    sendJson(res, 200, { workspace: ws, cleared });
  });
  router.use((req) => {
    throw ApiError.of('not_found', `No control operation ${req.method} /__sandbox${req.path}.`);
  });
  return router;
}
