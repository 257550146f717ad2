/**
 * The engine routes /v1 from the method and URL string alone, as Express's
 * router routed it before (the cases a client can tell): the same
 * operation and path parameters, or the same miss (405 with the same
 * `Allow`, 501 for the store area, 404), for generated paths of every
 * shape: case, trailing and double slashes, percent-encoding that decodes
 * or does not, HEAD. Express here is the reference, mounted as the sandbox
 * mounted it (a case-insensitive `/v1`, a case-sensitive router, an
 * undecodable segment kept literal).
 */
import express from 'express';
import fc from 'fast-check';
import { request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createV1Matcher, decodeSegment, splitUrl } from '../../src/v1/match.js';
import { allowByPath, compileRoutes } from '../../src/v1/routes.js';
import { loadSpec } from '../../src/openapi/load-spec.js';
import { createValidators } from '../../src/openapi/validate.js';

const spec = loadSpec();
const routes = compileRoutes(spec, createValidators(spec));
const match = createV1Matcher(routes);

/** What Express decided, in a header (a HEAD answer has no body). */
function expressApp(): express.Express {
  // A miss's parameters name nothing: only an operation's are compared.
  const decided =
    (kind: string, withParams = false) =>
    (req: express.Request, res: express.Response) =>
      void res.set('x-decided', JSON.stringify({ kind, params: withParams ? req.params : {} })).end();
  const v1 = express.Router({ caseSensitive: true });
  for (const { op } of routes) v1[op.method](op.routePath, decided(op.operationId, true));
  for (const [path, allow] of allowByPath(routes)) v1.all(path, decided(`405 ${allow}`));
  v1.use('/store', decided('501'));
  v1.use(decided('404'));
  const app = express();
  app.use('/v1', (req, _res, next) => {
    const { path, query } = splitUrl(req.url);
    const kept = path
      .split('/')
      .map((part) => (part.includes('%') && decodeSegment(part) === part ? part.replaceAll('%', '%25') : part))
      .join('/');
    req.url = kept + (query ? `?${query}` : '');
    next();
  });
  app.use('/v1', v1);
  return app;
}

/** What the engine decided, in the same form. */
function engineDecision(method: string, url: string): { kind: string; params: Record<string, string> } {
  const { path, query } = splitUrl(url);
  const found = match(method, path, query);
  if (found.route) return { kind: found.route.op.operationId, params: found.params };
  return {
    kind:
      found.allow ? `405 ${found.allow}`
      : found.store ? '501'
      : '404',
    params: {},
  };
}

let server: Server;
let port: number;
beforeAll(async () => {
  server = expressApp().listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

function expressDecision(method: string, path: string): Promise<unknown> {
  return new Promise((resolve, reject) => {
    request({ host: '127.0.0.1', port, method, path, agent: false }, (res) => {
      res.resume();
      resolve(JSON.parse(String(res.headers['x-decided'] ?? '{"kind":"none"}')));
    })
      .on('error', reject)
      .end();
  });
}

const segment = fc.constantFrom('pets', 'Pets', 'PETS', 'store', 'inventory', 'order', '1', '42', '%31', 'a%20b', '%2F', '%E0%A4%A', '%', 'x', '');
const path = fc
  .tuple(fc.constantFrom('/v1', '/V1'), fc.array(segment, { minLength: 0, maxLength: 4 }), fc.boolean(), fc.constantFrom('', '?limit=2', '?a=%ZZ'))
  .map(([base, parts, slash, query]) => `${base}${parts.map((p) => `/${p}`).join('')}${slash ? '/' : ''}${query}`);
const method = fc.constantFrom('GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH');

describe('the engine routes /v1 as Express routed it', () => {
  it('for generated methods and paths', async () => {
    await fc.assert(
      fc.asyncProperty(method, path, async (m, p) => {
        expect(engineDecision(m, p), `${m} ${p}`).toEqual(await expressDecision(m, p));
      }),
      { numRuns: 300 },
    );
  });
});
