/**
 * `persist` in real Chromium: a browser sandbox's pets kept in IndexedDB
 * outlive a reload of the page (createBrowserSandbox, and sandboxHandlers
 * behind MSW's service worker); a reset does too; without `persist` a
 * reload loses them; two tabs never take the same id; a browser without
 * IndexedDB falls back to memory with a warning; a write IndexedDB refuses
 * answers 507 and leaves nothing.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundle, openPage, staticServer } from '../support/differential/browser-way.js';
import { launch } from './support/browser.js';
import { sandboxBundle } from './support/sandbox-bundle.js';

const ORIGIN = 'http://persist.test';

/** Page code: a sandbox made with `options`, the pets it lists, and `then` run on it first. */
const PETS = `
  const auth = { authorization: 'Bearer sandbox-key', 'content-type': 'application/json' };
  const create = async (sandbox, name) => { const r = await sandbox.fetch('/v1/pets', { method: 'POST', headers: auth, body: JSON.stringify({ name, categoryId: 1 }) }); return [r.status, await r.json()]; };
  const list = async (sandbox) => (await (await sandbox.fetch('/v1/pets?limit=100', { headers: auth })).json()).map((p) => p.id + ' ' + p.name);
`;

let browser: Browser;
let files: Map<string, string>;

beforeAll(async () => {
  files = await sandboxBundle('browser-persist');
  browser = await launch();
}, 120_000);
afterAll(async () => {
  await browser?.close();
});

describe('createBrowserSandbox({ persist }) in real Chromium', { timeout: 120_000 }, () => {
  let context: BrowserContext;
  const warnings: string[] = [];
  const errors: string[] = [];

  beforeAll(async () => {
    context = await browser.newContext();
  });
  afterAll(async () => {
    await context?.close();
    expect(errors).toEqual([]);
  });

  /** A tab of the shared context on the test origin, serving the bundle. */
  async function tab(init?: string): Promise<Page> {
    const page = await context.newPage();
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'warning') warnings.push(message.text());
    });
    if (init) await page.addInitScript(init);
    await page.route(`${ORIGIN}/**`, (route) => {
      const js = files.get(new URL(route.request().url()).pathname);
      if (js !== undefined) return route.fulfill({ body: js, contentType: 'text/javascript' });
      return route.fulfill({ body: '<!doctype html><title>persist</title>', contentType: 'text/html' });
    });
    await page.goto(`${ORIGIN}/`);
    return page;
  }

  /** Runs `script` in `page` with `sandbox` made from `options` (closed after), and returns its result. */
  const run = <T>(page: Page, options: object, script: string): Promise<T> =>
    page.evaluate(`(async () => {
      const { createBrowserSandbox } = await import('${ORIGIN}/sandbox.js');
      ${PETS}
      const sandbox = await createBrowserSandbox(${JSON.stringify(options)});
      const work = async () => { ${script} };
      try { return await work(); } finally { await sandbox.close(); }
    })()`) as Promise<T>;

  it('keeps created pets across a reload, and a reset (to the seed) across the next', async () => {
    const options = { count: 2, persist: { name: 'reload' } };
    const page = await tab();
    const made = await run<unknown[]>(page, options, `return [await create(sandbox, 'Rex'), await create(sandbox, 'Tom')];`);
    expect(made).toEqual([
      [201, { id: 3, name: 'Rex', categoryId: 1 }],
      [201, { id: 4, name: 'Tom', categoryId: 1 }],
    ]);
    await page.reload();
    const after = await run<{ pets: string[]; next: unknown }>(page, options, `return { pets: await list(sandbox), next: await create(sandbox, 'Ada') };`);
    expect(after.pets.slice(2)).toEqual(['3 Rex', '4 Tom']);
    expect(after.next).toEqual([201, { id: 5, name: 'Ada', categoryId: 1 }]);

    const reset = await run<string[]>(page, options, `await sandbox.workspace().reset(); return list(sandbox);`);
    expect(reset).toHaveLength(2);
    await page.reload();
    const afterReset = await run<{ pets: string[]; next: unknown }>(page, options, `return { pets: await list(sandbox), next: await create(sandbox, 'Max') };`);
    expect(afterReset.pets).toEqual(reset);
    expect(afterReset.next).toEqual([201, { id: 3, name: 'Max', categoryId: 1 }]);
    await page.close();
  });

  it('without persist, a reload loses them; another name keeps its own pets', async () => {
    const page = await tab();
    await run(page, { count: 1 }, `await create(sandbox, 'Gone');`);
    await run(page, { count: 1, persist: true }, `await create(sandbox, 'Kept');`);
    await page.reload();
    expect(await run<string[]>(page, { count: 1 }, 'return list(sandbox);')).toHaveLength(1);
    expect((await run<string[]>(page, { count: 1, persist: true }, 'return list(sandbox);')).slice(1)).toEqual(['2 Kept']);
    expect(await run<string[]>(page, { count: 1, persist: { name: 'other' } }, 'return list(sandbox);')).toHaveLength(1);
    await page.close();
  });

  it('two tabs of one origin never take the same id, and each sees the other’s pets', async () => {
    const options = { count: 0, persist: { name: 'tabs' } };
    const [one, two] = [await tab(), await tab()];
    const script = (name: string) => `
      globalThis.sandbox = await createBrowserSandbox(${JSON.stringify(options)});
      globalThis.create = create; globalThis.list = list;
      return create(globalThis.sandbox, '${name}');`;
    const open = (page: Page, name: string) =>
      page.evaluate(`(async () => { const { createBrowserSandbox } = await import('${ORIGIN}/sandbox.js'); ${PETS} ${script(name)} })()`);
    expect(await open(one, 'First')).toEqual([201, { id: 1, name: 'First', categoryId: 1 }]);
    expect(await open(two, 'Second')).toEqual([201, { id: 2, name: 'Second', categoryId: 1 }]);
    expect(await one.evaluate('create(sandbox, "Third")')).toEqual([201, { id: 3, name: 'Third', categoryId: 1 }]);
    // Tab two was told of tab one's write over the BroadcastChannel: its next read reads storage again.
    await expect.poll(() => two.evaluate('list(sandbox)'), { timeout: 10_000 }).toEqual(['1 First', '2 Second', '3 Third']);
    await one.close();
    await two.close();
  });

  it('falls back to memory with a console warning where IndexedDB is missing', async () => {
    const page = await tab("Object.defineProperty(globalThis, 'indexedDB', { value: undefined });");
    expect(await run(page, { count: 0, persist: true }, `return create(sandbox, 'Solo');`)).toEqual([201, { id: 1, name: 'Solo', categoryId: 1 }]);
    expect(warnings).toEqual([expect.stringMatching(/^petstore-sandbox: persist: IndexedDB is not available here; the pets are kept in memory only/)]);
    await page.close();
  });

  it('answers 507 when IndexedDB refuses a write for quota, and keeps nothing of it', async () => {
    const page = await tab();
    const result = await run<Record<string, unknown>>(
      page,
      { count: 1, persist: { name: 'full' } },
      `
      const put = IDBObjectStore.prototype.put;
      IDBObjectStore.prototype.put = function () { throw new DOMException('quota', 'QuotaExceededError'); };
      const refused = await create(sandbox, 'Big');
      const listed = await list(sandbox);
      IDBObjectStore.prototype.put = put;
      return { refused, listed, next: await create(sandbox, 'Fits') };`,
    );
    expect(result.refused).toEqual([507, { code: 'insufficient_storage', status: 507, message: expect.stringContaining('storage quota for this origin') }]);
    expect(result.listed).toHaveLength(1);
    expect(result.next).toEqual([201, { id: 2, name: 'Fits', categoryId: 1 }]);
    await page.reload();
    expect((await run<string[]>(page, { count: 1, persist: { name: 'full' } }, 'return list(sandbox);')).slice(1)).toEqual(['2 Fits']);
    await page.close();
  });

  it('refuses a persist that names no database, as a ConfigError', async () => {
    const page = await tab();
    const refusal = await page.evaluate(`(async () => {
      const { createBrowserSandbox } = await import('${ORIGIN}/sandbox.js');
      try { await createBrowserSandbox({ persist: { name: 'a b' } }); return 'made'; } catch (error) { return error.name + ': ' + error.message; }
    })()`);
    expect(refusal).toMatch(/^ConfigError: persist: give true, false or \{ name \}/);
    await page.close();
  });
});

describe('sandboxHandlers({ persist }) behind MSW’s setupWorker in real Chromium', { timeout: 120_000 }, () => {
  let server: Server;

  afterAll(async () => {
    if (server) await new Promise((resolve) => server.close(resolve));
  });

  it('keeps a pet made through the service worker across a reload', async () => {
    server = await staticServer(await bundle({ count: 1, persist: { name: 'worker' } }));
    const page = await openPage(browser, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    const auth = `{ authorization: 'Bearer sandbox-key', 'content-type': 'application/json' }`;
    const created = await page.evaluate(
      `fetch('/v1/pets', { method: 'POST', headers: ${auth}, body: '{"name":"Rex","categoryId":1}' }).then(async (r) => [r.status, await r.json()])`,
    );
    expect(created).toEqual([201, { id: 2, name: 'Rex', categoryId: 1 }]);
    await page.reload();
    await page.waitForFunction("document.title === 'ready' && navigator.serviceWorker.controller !== null", undefined, { timeout: 60_000 });
    const listed = await page.evaluate(`fetch('/v1/pets', { headers: ${auth} }).then((r) => r.json()).then((pets) => pets.map((p) => p.name))`);
    expect((listed as string[])[1]).toBe('Rex');
    await page.context().close();
  });
});
