/**
 * The browser's build of `petstore-sandbox/msw`, bundled as `npm run build`
 * bundles it (scripts/browser-bundle.mjs): nothing of Node may reach it (no
 * `node:` module, no Node built-in by its bare name), and the sandbox it
 * makes, run in real Chromium without MSW, answers as the Node library does,
 * byte for byte.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { join, relative } from 'node:path';
import { build, type Plugin } from 'esbuild';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserBundleOptions } from '../../scripts/browser-bundle.mjs';
import { createSandbox } from '../../src/library/create-sandbox.js';
import { launch } from '../browser/support/browser.js';
import { ROOT } from '../support/spawn.js';

const OUT = join(ROOT, 'test-output', 'browser-bundle');

/** Every Node built-in the bundle imports, with the file that imports it: esbuild is told to leave them out, and they are listed. */
function nodeImports(found: string[]): Plugin {
  return {
    name: 'node-imports',
    setup(b) {
      b.onResolve({ filter: /.*/ }, (args) => {
        if (!isBuiltin(args.path)) return undefined;
        found.push(`${args.path} (imported by ${relative(ROOT, args.importer)})`);
        return { path: args.path, external: true };
      });
    },
  };
}

/** A source file with one line added at its top, for the bundle only. */
function planting(file: string, line: string): Plugin {
  return {
    name: 'plant',
    setup(b) {
      b.onLoad({ filter: /\.ts$/ }, (args) =>
        args.path === join(ROOT, file) ? { contents: `${line}\n${readFileSync(args.path, 'utf8')}`, loader: 'ts' } : undefined,
      );
    },
  };
}

/** The Node built-ins the browser entry's bundle reaches (with the plugins given first). */
async function builtinsOfBundle(name: string, ...plugins: Plugin[]): Promise<string[]> {
  const found: string[] = [];
  const options = browserBundleOptions(ROOT, join(OUT, name));
  await build({ ...options, plugins: [...plugins, nodeImports(found), ...options.plugins] });
  return found;
}

describe('the browser build of petstore-sandbox/msw', { timeout: 120_000 }, () => {
  it('bundles for the browser platform without any Node built-in', async () => {
    expect(await builtinsOfBundle('entry')).toEqual([]);
  });

  it('would fail on one: a node: import planted in the engine is found', async () => {
    const planted = planting('src/kernel/query-string.ts', "import 'node:os';");
    expect(await builtinsOfBundle('planted', planted)).toEqual(['node:os (imported by src/kernel/query-string.ts)']);
    const bare = planting('src/store/seed.ts', "import 'path';");
    expect(await builtinsOfBundle('planted-bare', bare)).toEqual(['path (imported by src/store/seed.ts)']);
  });
});

describe('createBrowserSandbox in real Chromium, without MSW', { timeout: 120_000 }, () => {
  let browser: Browser;
  let files: Map<string, string>;
  const ORIGIN = 'http://bundle.test';

  beforeAll(async () => {
    // The same options as the package's build, with the sandbox's own module as the entry (no MSW to load).
    const dir = join(OUT, 'chromium');
    mkdirSync(dir, { recursive: true });
    const options = browserBundleOptions(ROOT, dir, [{ in: join(ROOT, 'src', 'library', 'browser-sandbox.ts'), out: 'sandbox' }]);
    const result = await build({ ...options, write: false });
    files = new Map((result.outputFiles ?? []).map((file) => [file.path.slice(dir.length), file.text]));
    browser = await launch();
  });
  afterAll(async () => {
    await browser?.close();
  });

  /** Runs `script` in a page that imports the bundle as `sandboxModule`, and returns its result. */
  async function inPage<T>(script: string): Promise<T> {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.route(`${ORIGIN}/**`, (route) => {
      const path = new URL(route.request().url()).pathname;
      const js = files.get(path);
      if (js !== undefined) return route.fulfill({ body: js, contentType: 'text/javascript' });
      return route.fulfill({ body: '<!doctype html><title>bundle</title>', contentType: 'text/html' });
    });
    await page.goto(`${ORIGIN}/`);
    try {
      return (await page.evaluate(`(async () => { const sandboxModule = await import('${ORIGIN}/sandbox.js'); ${script} })()`)) as T;
    } finally {
      await page.close();
      expect(errors).toEqual([]);
    }
  }

  it('answers GET /v1/pets with the seeded list the Node library gives for the same seed, byte for byte', async () => {
    const inBrowser = await inPage<{ status: number; type: string | null; body: string }>(`
      const sandbox = await sandboxModule.createBrowserSandbox({ seed: 7, count: 30 });
      const response = await sandbox.fetch('/v1/pets?limit=30', { headers: { authorization: 'Bearer sandbox-key' } });
      return { status: response.status, type: response.headers.get('content-type'), body: await response.text() };
    `);
    const node = await createSandbox({ seed: 7, count: 30 });
    try {
      const response = await node.fetch('/v1/pets?limit=30', { headers: { authorization: 'Bearer sandbox-key' } });
      expect(inBrowser).toEqual({ status: 200, type: response.headers.get('content-type'), body: await response.text() });
      expect((JSON.parse(inBrowser.body) as unknown[]).length).toBe(30);
    } finally {
      await node.close();
    }
  });

  it('creates from a gzip body, journals it, and refuses what needs Node with the documented errors', async () => {
    const result = await inPage<Record<string, unknown>>(`
      const sandbox = await sandboxModule.createBrowserSandbox({ seed: 1, count: 3 });
      const auth = { authorization: 'Bearer sandbox-key', 'content-type': 'application/json' };
      const gzip = new Blob(['{"name":"Rex","categoryId":2}']).stream().pipeThrough(new CompressionStream('gzip'));
      const created = await sandbox.fetch('/v1/pets', { method: 'POST', headers: { ...auth, 'content-encoding': 'gzip' }, body: await new Response(gzip).arrayBuffer() });
      const brotli = await sandbox.fetch('/v1/pets', { method: 'POST', headers: { ...auth, 'content-encoding': 'br' }, body: 'x' });
      const journal = await sandbox.workspace().journal.read();
      const modeSwitch = await sandbox.fetch('/__sandbox/mode', { method: 'PUT', headers: { authorization: 'Bearer sandbox-admin', 'content-type': 'application/json' }, body: '{"mode":"example"}' });
      const metrics = await sandbox.fetch('/metrics');
      const refusals = [];
      for (const options of [{ mode: 'dynamic' }, { store: 'postgres://u:secret@db/x' }, { port: 4010 }]) {
        try { await sandboxModule.createBrowserSandbox(options); refusals.push('made'); } catch (error) { refusals.push(error.name + ': ' + error.message); }
      }
      await sandbox.close();
      return {
        created: [created.status, await created.json()],
        brotli: [brotli.status, await brotli.json()],
        journaled: journal.entries.map((e) => e.method + ' ' + e.path + ' ' + e.status),
        modeSwitch: [modeSwitch.status, await modeSwitch.json()],
        metrics: [metrics.status, await metrics.text()],
        refusals,
      };
    `);
    expect(result.created).toEqual([201, { id: 4, name: 'Rex', categoryId: 2 }]);
    expect(result.brotli).toEqual([415, { code: 'unsupported_media_type', status: 415, message: expect.stringContaining("'br'") }]);
    expect(result.journaled).toEqual(expect.arrayContaining(['POST /v1/pets 201', 'POST /v1/pets 415']));
    expect(result.modeSwitch).toEqual([501, { code: 'not_implemented', status: 501, message: expect.stringContaining('Prism, which runs only on Node') }]);
    expect(result.metrics).toEqual([200, expect.stringMatching(/^# No metrics: this sandbox runs in a browser/)]);
    const refusals = result.refusals as string[];
    expect(refusals[0]).toMatch(/^ConfigError: mode 'dynamic' answers through Prism/);
    expect(refusals[1]).toMatch(/^ConfigError: store: /);
    expect(refusals[1]).not.toContain('secret');
    expect(refusals[2]).toMatch(/^ConfigError: port: /);
  });
});
