/**
 * Specs served by convention in real Chromium: a page that parses nothing
 * gets the Pet Store 1.1 and the inventory API as objects (their YAML
 * parsed here, written into its code as JSON) and serves both through
 * createBrowserSandbox and through sandboxHandlers behind MSW's service
 * worker. Every answer the page saw is checked here, in Node, against its
 * own spec by the independent checker (contracts/spec-check.ts).
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSpecChecker } from '../../contracts/spec-check.js';
import { bundle, openPage } from '../support/differential/browser-way.js';
import { INVENTORY, PETSTORE_11 } from '../support/own-spec.js';
import { ROOT } from '../support/spawn.js';
import { launch } from './support/browser.js';
import { sandboxBundle } from './support/sandbox-bundle.js';

const ORIGIN = 'http://own-spec.test';
const SPECS = [PETSTORE_11, INVENTORY].map((file) => parse(readFileSync(file, 'utf8')) as Record<string, unknown>);
const CHECKERS: Record<string, [string, ReturnType<typeof createSpecChecker>]> = {
  '/v1': [PETSTORE_11, createSpecChecker(PETSTORE_11)],
  '/api/v2': [INVENTORY, createSpecChecker(INVENTORY)],
};

/** One answer the page received: the request, and the answer's status, headers and parsed body. */
interface Seen {
  method: string;
  base: string;
  path: string;
  status: number;
  headers: Record<string, string>;
  // Read field by field below; the spec checker vouches for the shape.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

/**
 * Page code: `scenario(fetcher, origin)` places, reads, lists and deletes an
 * order at /v1; creates, merge-patches and reads an item at /api/v2, lists
 * the items (three seeded) and asks for them without a key; it answers
 * every answer it saw, by name.
 */
const SCENARIO = `
  const scenario = async (fetcher, origin) => {
    const seen = {};
    const send = async (name, method, base, path, headers = {}, body) => {
      const r = await fetcher(origin + base + path, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
      const text = await r.text();
      const all = {}; r.headers.forEach((v, k) => (all[k] = v));
      let parsed = text === '' ? undefined : text;
      try { parsed = JSON.parse(text); } catch {}
      seen[name] = { method, base, path, status: r.status, headers: all, body: parsed };
      return seen[name];
    };
    const bearer = { authorization: 'Bearer sandbox-key', 'content-type': 'application/json' };
    const key = { 'x-api-key': 'sandbox-key', 'content-type': 'application/json' };
    await send('place', 'POST', '/v1', '/store/orders', bearer, { petId: 1, quantity: 2 });
    await send('read', 'GET', '/v1', '/store/orders/4', bearer);
    await send('list', 'GET', '/v1', '/store/orders?limit=50', bearer);
    await send('delete', 'DELETE', '/v1', '/store/orders/4', bearer);
    await send('gone', 'GET', '/v1', '/store/orders/4', bearer);
    const made = await send('create', 'POST', '/api/v2', '/items', key, { name: 'Saw', sku: 'SAW-0001', category: 'tools', price: 12.5 });
    await send('patch', 'PATCH', '/api/v2', '/items/' + made.body?.id, { ...key, 'content-type': 'application/merge-patch+json' }, { price: null, inStock: false });
    await send('reread', 'GET', '/api/v2', '/items/' + made.body?.id, key);
    await send('items', 'GET', '/api/v2', '/items?limit=50', key);
    await send('keyless', 'GET', '/api/v2', '/items');
    return seen;
  };
`;

/** Checks each answer against its spec, then what the scenario must have got. */
async function expectScenario(seen: Record<string, Seen>): Promise<void> {
  for (const [name, answer] of Object.entries(seen)) {
    const [file, checker] = CHECKERS[answer.base] as [string, ReturnType<typeof createSpecChecker>];
    const op = await checker.find(answer.method, answer.path.split('?')[0] as string);
    const problems = await checker.problems(op, answer, { undocumented: 'error-body' });
    expect(problems, `${name}: ${answer.method} ${answer.base}${answer.path} (${file}) answered ${answer.status} ${JSON.stringify(answer.body)}`).toEqual([]);
  }
  const { place, read, list, gone, create, patch, reread, keyless } = seen as Record<string, Seen>;
  expect(place?.status).toBe(201);
  expect(place?.body).toMatchObject({ id: 4, petId: 1, quantity: 2, complete: false });
  expect(read?.status).toBe(200);
  expect(read?.body).toEqual(place?.body);
  expect(list?.status).toBe(200);
  expect((list?.body as { id: number }[]).map((order) => order.id)).toEqual([1, 2, 3, 4]);
  expect(seen.delete?.status).toBe(204);
  expect(seen.delete?.body).toBeUndefined();
  expect(gone?.status).toBe(404);
  expect(gone?.body).toEqual({ code: expect.any(String), message: expect.any(String), status: 404 });
  expect(create?.status).toBe(201);
  expect(create?.body).toMatchObject({ name: 'Saw', sku: 'SAW-0001', category: 'tools', price: 12.5, inStock: true });
  expect(create?.body.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  expect(patch?.status).toBe(200);
  const { price: _price, ...unpriced } = create?.body as Record<string, unknown>;
  expect(patch?.body).toEqual({ ...unpriced, inStock: false });
  expect(reread?.body).toEqual(patch?.body);
  // Three seeded from the item schema by the browser build's Faker (each checked above), then the one made.
  expect(seen.items?.body).toHaveLength(4);
  expect(seen.items?.body).toContainEqual(patch?.body);
  expect(keyless?.status).toBe(401);
  expect(keyless?.body).toEqual({ error: expect.any(String), detail: expect.any(String) });
}

let browser: Browser;
let files: Map<string, string>;

beforeAll(async () => {
  files = await sandboxBundle('browser-own-spec');
  browser = await launch();
}, 120_000);
afterAll(async () => {
  await browser?.close();
});

describe('createBrowserSandbox({ spec }) in real Chromium', { timeout: 120_000 }, () => {
  let page: Page;
  const errors: string[] = [];

  beforeAll(async () => {
    page = await (await browser.newContext()).newPage();
    page.on('pageerror', (error) => errors.push(error.message));
    await page.route(`${ORIGIN}/**`, (route) => {
      const js = files.get(new URL(route.request().url()).pathname);
      if (js !== undefined) return route.fulfill({ body: js, contentType: 'text/javascript' });
      return route.fulfill({ body: '<!doctype html><title>own spec</title>', contentType: 'text/html' });
    });
    await page.goto(`${ORIGIN}/`);
  });
  afterAll(async () => {
    await page?.context().close();
    expect(errors).toEqual([]);
  });

  it('serves both specs given as objects, each answer in its own spec', async () => {
    const seen = await page.evaluate(`(async () => {
      const { createBrowserSandbox } = await import('${ORIGIN}/sandbox.js');
      ${SCENARIO}
      const sandbox = await createBrowserSandbox({ spec: ${JSON.stringify(SPECS)}, count: 3 });
      try { return await scenario((url, init) => sandbox.fetch(url, init), ''); } finally { await sandbox.close(); }
    })()`);
    await expectScenario(seen as Record<string, Seen>);
  });

  it('refuses a spec given as a file path, as a ConfigError', async () => {
    const refusal = await page.evaluate(`(async () => {
      const { createBrowserSandbox } = await import('${ORIGIN}/sandbox.js');
      try { await createBrowserSandbox({ spec: ['test/specs/inventory-v2.yaml'] }); return 'made'; } catch (error) { return error.name + ': ' + error.message; }
    })()`);
    expect(refusal).toMatch(/^ConfigError: spec: a sandbox in a browser reads no file \('test\/specs\/inventory-v2\.yaml'\)/);
  });
});

describe('sandboxHandlers({ spec, origin }) behind MSW’s setupWorker in real Chromium', { timeout: 120_000 }, () => {
  let server: Server;
  let page: Page;

  beforeAll(async () => {
    // The page's script names the server's origin: the server listens first and is given its script after.
    const worker = readFileSync(join(ROOT, 'node_modules', 'msw', 'lib', 'mockServiceWorker.js'), 'utf8');
    let script = '';
    server = createServer((req, res) => {
      const file: Record<string, [string, string]> = {
        '/': [
          'text/html',
          `<!doctype html><html lang="en"><head><title>starting</title><script type="module" src="/page.js"></script></head><script>${SCENARIO}</script></html>`,
        ],
        '/page.js': ['text/javascript', script],
        '/mockServiceWorker.js': ['text/javascript', worker],
      };
      const found = file[req.url ?? ''];
      res.writeHead(found ? 200 : 599, { 'content-type': found?.[0] ?? 'text/plain' }).end(found?.[1] ?? 'not intercepted');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    script = await bundle({ spec: SPECS, count: 3, origin });
    page = await openPage(browser, origin);
  }, 120_000);
  afterAll(async () => {
    await page?.context().close();
    if (server) await new Promise((resolve) => server.close(resolve));
  });

  it('answers the page’s own fetch for both specs at the origin, through the worker', async () => {
    const past: string[] = [];
    page.on('response', (response) => {
      if (!response.fromServiceWorker()) past.push(response.url());
    });
    const seen = await page.evaluate('scenario(fetch, location.origin)');
    expect(past).toEqual([]);
    await expectScenario(seen as Record<string, Seen>);
  });

  it('lets a request to a path under no spec through to the network', async () => {
    const answer = await page.evaluate(`fetch('/v2/pets', { headers: { authorization: 'Bearer sandbox-key' } }).then(async (r) => [r.status, await r.text()])`);
    expect(answer).toEqual([599, 'not intercepted']);
  });
});
