import express, { type Response } from 'express';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ApiError } from '../kernel/errors.js';
import { sendJson } from './send-json.js';
import { readSpecDocument } from '../openapi/spec-cache.js';
import { CONTROL_SPEC_FILE, SPEC_FILE } from '../config/paths.js';
import type { OwnTargets } from '../adapters/node-middleware.js';
import { isLoopbackPeer } from '../engine/engine.js';

/**
 * What the two pages may load: their own scripts, styles and images from
 * this origin only; no inline script, no other origin, no plugins, no
 * framing. `data:` images are Swagger UI's icons in its stylesheet.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** Where the pages are served. */
export const UI_PATHS = { docs: '/docs', controlDocs: '/docs/control', docsKey: '/docs/api-key.json', console: '/__sandbox/ui' } as const;

type Json = Record<string, unknown>;

/** Every `$ref` string of a document rewritten by `rewrite`, in a copy. */
function mapRefs(value: unknown, rewrite: (ref: string) => string): unknown {
  if (Array.isArray(value)) return value.map((v) => mapRefs(v, rewrite));
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, k === '$ref' && typeof v === 'string' ? rewrite(v) : mapRefs(v, rewrite)]));
}

type Operations = Record<string, Record<string, Json>>;

/**
 * A deprecated operation's summary names the date its `Sunset` header
 * announces, so the list of operations shows it without opening one.
 */
function withSunset(api: Json): Json {
  const headers = (api.components as { headers?: Record<string, { schema?: { enum?: unknown[] } }> } | undefined)?.headers;
  const sunset = headers?.Sunset?.schema?.enum?.[0];
  if (typeof sunset !== 'string') return api;
  const mark = (op: Json) => (op.deprecated === true ? { ...op, summary: `${String(op.summary ?? '')} (deprecated; Sunset: ${sunset})` } : op);
  const paths = Object.entries(api.paths as Operations).map(([path, item]) => [path, Object.fromEntries(Object.entries(item).map(([m, op]) => [m, mark(op)]))]);
  return { ...api, paths: Object.fromEntries(paths) };
}

/** An API the sandbox serves, as the docs page shows it: its base path and its spec's document. */
export interface PageApi {
  base: string;
  document: Json;
}

/** The served APIs as the docs page lists them (`/docs/apis.json`): a name for the selector, the spec's URL, the base path. */
interface ListedApi {
  name: string;
  url: string;
  base: string;
}

/** Where the docs page reads the spec of the served API at `index`. */
const apiSpecPath = (index: number) => `/docs/apis/${index}/openapi.json`;

/**
 * The specs as the docs page reads them: "try it" must reach this sandbox,
 * whatever its host and port, so each API's only server is its base path
 * relative to the page's origin; a deprecated operation shows its Sunset
 * date; the control spec's references to the interface's schemas point at
 * the JSON served beside it. Without `apis`, the embedded Pet Store at `/v1`.
 */
function docsSpecs(apis: readonly PageApi[] | undefined): { apis: Json[]; listed: ListedApi[]; control: Json } {
  const served = apis ?? [{ base: '/v1', document: readSpecDocument(SPEC_FILE) }];
  const control = mapRefs(readSpecDocument(CONTROL_SPEC_FILE), (ref) => ref.replace(/^\.\/openapi\.yaml#/, './openapi.json#')) as Json;
  const listed = served.map(({ base, document }, index) => {
    const info = (document.info ?? {}) as { title?: unknown; version?: unknown };
    const name = `${typeof info.title === 'string' ? info.title : 'API'} ${typeof info.version === 'string' ? info.version : ''} (${base || '/'})`;
    return { name: name.replace(/ {2}/g, ' '), url: apiSpecPath(index), base };
  });
  return {
    apis: served.map(({ base, document }) => ({ ...withSunset(document), servers: [{ url: base || '/', description: 'This sandbox' }] })),
    listed,
    control: { ...control, servers: [{ url: '/__sandbox', description: "This sandbox's control plane" }] },
  };
}

/** Headers of every page and asset: the policy, no sniffing, no referrer, never cached stale. */
function secure(res: Response): void {
  res.setHeader('Content-Security-Policy', CONTENT_SECURITY_POLICY);
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('Cache-Control', 'no-cache');
}

/** Headers a proxy adds to say whom it passes a request on for: such a request's socket is the proxy's, not its client's. */
const PROXIED = ['forwarded', 'x-forwarded-for', 'x-real-ip'];

/**
 * The API key the docs page authorizes "try it" with: the sandbox's first
 * key, told only to a browser on this machine (a loopback peer that no
 * proxy passed on). Any other peer is told none, and types one in
 * Swagger UI's Authorize: a key from a secret file is never disclosed
 * beyond loopback.
 */
function keyForPage(req: express.Request, apiKey: string | undefined): { apiKey: string | null } {
  const peer = req.socket.remoteAddress;
  const local = peer !== undefined && isLoopbackPeer(peer) && !PROXIED.some((name) => req.headers[name] !== undefined);
  return { apiKey: local ? (apiKey ?? null) : null };
}

/**
 * The pages' paths, as Express routes them (case-insensitive, one trailing
 * slash allowed): `/`, the docs and the console, with their assets. The
 * server routes GET and HEAD of these to the pages' app; no other request
 * reaches it.
 */
export const PAGE_ROUTES = [
  '/',
  UI_PATHS.docs,
  UI_PATHS.controlDocs,
  '/docs/openapi.json',
  '/docs/sandbox-control.json',
  '/docs/apis.json',
  '/docs/apis/:index/openapi.json',
  UI_PATHS.docsKey,
  '/docs/assets/*asset',
  UI_PATHS.console,
  `${UI_PATHS.console}/assets/*asset`,
];

/**
 * What Express may route to `PAGE_ROUTES`, as one cheap test: `/` (with
 * its one trailing slash), and paths that begin as the docs' or the
 * console's do. The listener gives every other request to the engine's
 * middleware without Express's walk.
 */
export const PAGE_TARGETS: OwnTargets = { exact: ['/', '//'], prefixes: [UI_PATHS.docs, UI_PATHS.console] };

/**
 * The browser pages, built into `uiDir` by `npm run build`: the API docs
 * (Swagger UI) at `/docs` (every API served, `apis`, one at a time) and `/docs/control`, the QA console at
 * `/__sandbox/ui`, and `GET /` pointing at them, as an Express app of their
 * own. Static files need no credential; every call the pages make for data
 * does. `apiKey` (the sandbox's first) is what the docs page authorizes
 * "try it" with, for a browser on this machine only (`keyForPage`). A page
 * path with nothing there passes on.
 */
export function createPages(uiDir: string, apiKey: string | undefined, apis?: readonly PageApi[]): express.Express {
  const router = express();
  router.disable('x-powered-by');
  router.set('etag', false);
  let specs: ReturnType<typeof docsSpecs> | undefined;
  const built = () => {
    if (!existsSync(join(uiDir, 'docs', 'index.html'))) throw ApiError.of('not_found', 'The web pages are not built: run `npm run build`.');
  };
  const page = (folder: string) => (_req: express.Request, res: Response) => {
    built();
    secure(res);
    res.sendFile(join(uiDir, folder, 'index.html'));
  };
  const assets = (folder: string) => express.static(join(uiDir, folder), { index: false, redirect: false, setHeaders: secure, fallthrough: true });

  router.get('/', (req, res) => {
    // A browser goes to the docs; a program gets the links.
    if (req.accepts(['json', 'html']) === 'html') return res.redirect(302, UI_PATHS.docs);
    sendJson(res, 200, {
      api: apis?.[0]?.base ?? '/v1',
      docs: UI_PATHS.docs,
      controlPlane: '/__sandbox',
      controlDocs: UI_PATHS.controlDocs,
      console: UI_PATHS.console,
    });
  });
  router.get([UI_PATHS.docs, UI_PATHS.controlDocs], page('docs'));
  router.get(['/docs/openapi.json', '/docs/sandbox-control.json'], (req, res) => {
    specs ??= docsSpecs(apis);
    secure(res);
    // The first API's (the Pet Store's, without --spec): what the page showed before it listed several.
    sendJson(res, 200, req.path.endsWith('openapi.json') ? specs.apis[0] : specs.control);
  });
  router.get('/docs/apis.json', (_req, res) => {
    specs ??= docsSpecs(apis);
    secure(res);
    sendJson(res, 200, { apis: specs.listed });
  });
  router.get('/docs/apis/:index/openapi.json', (req, res, next) => {
    specs ??= docsSpecs(apis);
    const index = /^\d{1,4}$/.test(req.params.index ?? '') ? Number(req.params.index) : -1;
    // Not a served API's: passed on, to the engine's 404.
    if (specs.apis[index] === undefined) return next();
    secure(res);
    sendJson(res, 200, specs.apis[index]);
  });
  router.get(UI_PATHS.docsKey, (req, res) => {
    secure(res);
    // A secret for some peers and not others: no cache may keep it, nor answer another peer with it.
    res.setHeader('Cache-Control', 'no-store');
    sendJson(res, 200, keyForPage(req, apiKey));
  });
  router.use('/docs/assets', assets('docs'));
  router.get(UI_PATHS.console, page('console'));
  router.use(`${UI_PATHS.console}/assets`, assets('console'));
  return router;
}
