// The page as `vite build` (its command) and `vite` (the dev server, through Vite's API) make it: the production
// build holds none of the sandbox and warns of no chunk's size; the dev server gives the page the sandbox's browser build.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createServer } from 'vite';
import { afterAll, expect, test } from 'vitest';

const configFile = fileURLToPath(new URL('./vite.config.js', import.meta.url));
const outDir = mkdtempSync(join(tmpdir(), 'vite-msw-build-'));
afterAll(() => rmSync(outDir, { recursive: true, force: true }));

/** `vite build` as `npm run build` runs it: its own process, NODE_ENV unset (Vitest sets it to `test`, which would keep `DEV` true). */
function viteBuild() {
  const env = { ...process.env };
  delete env.NODE_ENV;
  const vite = fileURLToPath(new URL('./node_modules/vite/bin/vite.js', import.meta.url));
  const run = spawnSync(process.execPath, [vite, 'build', '--outDir', outDir, '--emptyOutDir'], {
    cwd: dirname(configFile),
    env,
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { status: run.status, output: `${run.stdout}\n${run.stderr}` };
}

test('the production build holds none of the sandbox and none of MSW, and warns of no chunk size', { timeout: 120_000 }, () => {
  const { status, output } = viteBuild();
  expect(status, output).toBe(0);
  expect(output).not.toMatch(/larger than/);
  const scripts = readdirSync(join(outDir, 'assets')).filter((file) => file.endsWith('.js'));
  const code = scripts.map((file) => readFileSync(join(outDir, 'assets', file), 'utf8')).join('\n');
  expect(scripts).toHaveLength(1); // the page's entry, no lazy chunk
  expect(code).toContain('/pets?limit=100');
  for (const piece of ['listPets', 'sandbox-admin', 'mockServiceWorker']) expect(code).not.toContain(piece);
  expect(code.length).toBeLessThan(5_000);
});

test('the dev server gives the page the browser build of petstore-sandbox/msw, imported lazily', { timeout: 120_000 }, async () => {
  const server = await createServer({ configFile, server: { port: 0, host: '127.0.0.1' }, logLevel: 'silent' });
  try {
    await server.listen();
    const origin = `http://127.0.0.1:${server.httpServer.address().port}`;
    const page = await (await fetch(`${origin}/main.js`)).text();
    // The page's two lazy imports, as Vite rewrote them (MSW's browser entry, the sandbox), each fetched as the page would.
    const urls = [...page.matchAll(/import\(\s*["']([^"']+)["']\s*\)/g)].map((match) => match[1]);
    expect(urls).toHaveLength(2);
    const modules = await Promise.all(urls.map(async (url) => (await fetch(new URL(url, origin))).text()));
    // createBrowserSandbox: exported by the browser build alone.
    expect(modules.filter((code) => code.includes('createBrowserSandbox'))).toHaveLength(1);
  } finally {
    await server.close();
  }
});
