/**
 * The installable package, as a user gets it: `npm pack` (which builds
 * through `prepack`), `npm install --omit=dev <tarball>` in a new ESM
 * project (scratch-project.ts), then `npx petstore-sandbox`, and the
 * package's entries imported by a TypeScript example, type-checked against
 * the shipped declarations and run, and the README's Vitest example run by
 * Vitest. Nothing of this repository is reachable from there (but the
 * TypeScript compiler that checks the example, and Vitest): the
 * tarball holds everything the running server needs, and its dependencies
 * everything it imports. Slow (a build and an install, once for the file):
 * a generous timeout.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPTIONAL_PEERS } from '../../src/config/optional-peers.js';
import { runningServer } from '../../src/store/file/lock.js';
import { tempDir } from '../support/harness.js';
import { jsonLines } from '../support/log-lines.js';
import { npm, packTarball, rootDevDependencies } from '../support/npm-package.js';
import { awaitStartLine, collectOutput, ROOT } from '../support/spawn.js';
import { ctrfErrors, junitErrors } from '../support/report-schemas.js';
import { PAGE_WITHOUT_BROWSER, TSCONFIGS, writeScratchProject } from './scratch-project.js';

let app: string;
let tarball: string;

/** `npx --no-install <args>` in the user's project, to its end: exit code and output (stdout, then stderr). */
function npxIn(cwd: string, args: string[]): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('npx', ['--no-install', ...args], { cwd, env: { ...process.env, PACT_DO_NOT_TRACK: 'true' } });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, out }));
  });
}
beforeAll(() => {
  tarball = packTarball();
  app = tempDir('petstore-install-');
  writeScratchProject(app);
  // Node's types, which the shipped declarations and the example use, at the version this repository builds with.
  const nodeTypes = rootDevDependencies()['@types/node'] as string;
  npm(['install', '--omit=dev', '--no-audit', '--no-fund', '--prefer-offline', tarball, `@types/node@${nodeTypes}`], app);
  // A server's optional peers (Prism, pg, the MCP SDK), installed beside the package as docs/installing.md says: this
  // repository's copies, linked in. Without them, test/package/install.test.ts checks what each feature says.
  for (const peer of Object.keys(OPTIONAL_PEERS)) {
    mkdirSync(dirname(join(app, 'node_modules', peer)), { recursive: true });
    symlinkSync(join(ROOT, 'node_modules', peer), join(app, 'node_modules', peer), 'dir');
  }
}, 600_000);

describe('the npm package', { timeout: 180_000 }, () => {
  it('holds the bundle, the specs, the fixture sets, the README and docs, and no source, test or dev tool', () => {
    const files = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).trim().split('\n').sort();
    expect(files).toEqual(
      [
        'package/README.md',
        // The pages the README links to, their pictures and the bench's latest page and chart.
        ...readdirSync(join(ROOT, 'docs'), { recursive: true, encoding: 'utf8' })
          .filter((path) => /\.(md|svg)$/.test(path) || /^[^/]+\.png$/.test(path))
          .map((path) => `package/docs/${path}`),
        'package/dist/src/bin.js',
        // The notices of the libraries the bundles carry (scripts/bundled-licenses.mjs).
        'package/dist/THIRD-PARTY-LICENSES.md',
        // The package's entries, each with its declarations, and the code they share.
        ...['index', 'middleware', 'cli', 'msw', 'playwright', 'playwright-global-setup', 'vitest', 'vitest-global-setup', 'testcontainers'].flatMap(
          (entry) => [`package/dist/${entry}.js`, `package/dist/${entry}.d.ts`],
        ),
        // Vitest's setup file: a module run for its effect, declared as exporting nothing.
        'package/dist/vitest-setup.js',
        'package/dist/vitest-setup.d.ts',
        ...readdirSync(join(ROOT, 'dist', 'chunks')).map((chunk) => `package/dist/chunks/${chunk}`),
        // The browser's build of petstore-sandbox/msw (its `browser` condition), with its declarations and its own chunks.
        'package/dist/browser/msw.js',
        'package/dist/browser/msw.d.ts',
        ...(existsSync(join(ROOT, 'dist', 'browser', 'chunks')) ?
          readdirSync(join(ROOT, 'dist', 'browser', 'chunks')).map((c) => `package/dist/browser/chunks/${c}`)
        : []),
        // The browser pages, built by prepack (Swagger UI's bundle copied in): served by the installed package, offline.
        ...readdirSync(join(ROOT, 'dist', 'ui'), { recursive: true, withFileTypes: true })
          .filter((entry) => entry.isFile())
          .map((entry) => `package/${relative(ROOT, join(entry.parentPath, entry.name))}`),
        ...readdirSync(join(ROOT, 'fixtures'))
          .filter((f) => f.endsWith('.json'))
          .map((f) => `package/fixtures/${f}`),
        // petstore-sandbox verify: its bundle, its Dredd hooks, and the pacts it verifies by default.
        ...readdirSync(join(ROOT, 'dist', 'verify'), { recursive: true, withFileTypes: true })
          .filter((entry) => entry.isFile())
          .map((entry) => `package/${relative(ROOT, join(entry.parentPath, entry.name))}`),
        ...readdirSync(join(ROOT, 'contracts', 'pacts'))
          .filter((f) => f.endsWith('.json'))
          .map((f) => `package/contracts/pacts/${f}`),
        'package/package.json',
        'package/spec/openapi.yaml',
        'package/spec/sandbox-control.yaml',
      ].sort(),
    );
    const notices = readFileSync(join(app, 'node_modules', 'petstore-sandbox', 'dist', 'THIRD-PARTY-LICENSES.md'), 'utf8');
    for (const bundled of ['express', 'pino', 'ajv', 'lowdb']) expect(notices).toMatch(new RegExp(`^## ${bundled} \\d+\\.\\d+\\.\\d+\n\nLicence: MIT\n`, 'm'));
    expect(notices).toMatch(/^## prom-client \d+\.\d+\.\d+\n\nLicence: Apache-2\.0\n\n```\n\s*Apache License/m);
    expect(existsSync(join(app, 'node_modules', 'vitest'))).toBe(false);
    expect(existsSync(join(app, 'node_modules', 'esbuild'))).toBe(false);
    // verify's tools are optional peers: never installed with the package.
    expect(existsSync(join(app, 'node_modules', 'dredd'))).toBe(false);
    expect(existsSync(join(app, 'node_modules', '@pact-foundation'))).toBe(false);
  });

  it('npx petstore-sandbox --version answers from the installed package', () => {
    const version = execFileSync('npx', ['--no-install', 'petstore-sandbox', '--version'], { cwd: app, encoding: 'utf8' }).trim();
    expect(version).toBe((JSON.parse(npm(['pkg', 'get', 'version', '--json'], ROOT)) as string).toString());
  });

  describe('npx petstore-sandbox, installed in a new project', () => {
    const data = () => join(app, 'data');
    let child: ReturnType<typeof spawn>;
    let origin: string;
    let output: ReturnType<typeof collectOutput>;
    beforeAll(async () => {
      mkdirSync(data(), { recursive: true });
      child = spawn('npx', ['--no-install', 'petstore-sandbox', '--port', '0', '--data', join(data(), 'db.json'), '--log-format', 'json'], {
        cwd: app,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      output = collectOutput(child);
      origin = await awaitStartLine(child, output, 60_000);
    }, 120_000);
    afterAll(() => {
      const sandbox = runningServer(join(data(), 'db.json'));
      if (sandbox) process.kill(sandbox.pid, 'SIGKILL');
      if (child.exitCode === null) child.kill('SIGKILL');
    });

    it('serves /v1 from the packaged spec and data, the probes, the metrics and a fixture set', async () => {
      const auth = { authorization: 'Bearer sandbox-key' };
      const pets = await fetch(`${origin}/v1/pets?limit=2`, { headers: auth });
      expect(pets.status).toBe(200);
      expect(((await pets.json()) as unknown[]).length).toBe(2);
      expect((await fetch(`${origin}/readyz`)).status).toBe(200);
      expect(await (await fetch(`${origin}/metrics`)).text()).toContain('petstore_http_requests_total{operation="listPets",status="200",mode="stateful"} 1');
      const admin = { authorization: 'Bearer sandbox-admin', 'content-type': 'application/json' };
      const load = await fetch(`${origin}/__sandbox/load`, { method: 'POST', headers: admin, body: JSON.stringify({ fixture: 'empty' }) });
      expect(load.status, await load.clone().text()).toBe(200);
      // Prism, an optional peer the bundle imports on first use, loads from beside the package.
      const example = await fetch(`${origin}/v1/pets/1`, { headers: { ...auth, prefer: 'code=404' } });
      expect(example.status).toBe(404);
    });

    it('petstore-sandbox mcp: with the MCP SDK installed beside the package, serves the tools over stdio', async () => {
      const transport = new StdioClientTransport({
        command: 'npx',
        args: ['--no-install', 'petstore-sandbox', 'mcp', '--url', origin],
        cwd: app,
        stderr: 'pipe',
      });
      const client = new Client({ name: 'package-test', version: '1.0.0' });
      await client.connect(transport);
      try {
        expect((await client.listTools()).tools.map((t) => t.name)).toContain('add_fault');
        const faults = await client.callTool({ name: 'list_faults', arguments: {} });
        expect(faults.isError, JSON.stringify(faults)).toBeFalsy();
        expect(faults.structuredContent).toMatchObject({ faults: [] });
      } finally {
        await client.close();
      }
    });

    it('verify: names the peers to install while they are missing; with them, checks the sandbox and writes valid reports', async () => {
      const args = ['--target', `${origin}/v1`, '--key', 'sandbox-key', '--admin-token', 'sandbox-admin'];
      const missing = await npxIn(app, ['petstore-sandbox', 'verify', ...args]);
      expect(missing.out).toContain('petstore-sandbox verify: needs dredd and @pact-foundation/pact');
      expect(missing.out).toContain('Install: npm install --save-dev dredd@^14.1.0 @pact-foundation/pact@^17.1.4');
      expect(missing.code).toBe(2);
      // The user installs them beside the package: this repository's copies, linked in.
      const peers = ['dredd', '@pact-foundation/pact'].map((name) => join(app, 'node_modules', name));
      mkdirSync(join(app, 'node_modules', '@pact-foundation'), { recursive: true });
      for (const peer of peers) symlinkSync(join(ROOT, 'node_modules', relative(join(app, 'node_modules'), peer)), peer, 'dir');
      try {
        const reports = ['--report', 'junit=contracts.xml', '--report', 'ctrf=contracts.json'];
        const { code, out } = await npxIn(app, ['petstore-sandbox', 'verify', ...args, ...reports]);
        expect(out).toContain('PASS  Dredd: 9 of 9 transactions passed');
        expect(out).toMatch(/PASS {2}Pact: \d+ interactions? of pet-store-web verified/);
        expect(out).toContain('If verify is killed: npx petstore-sandbox checkpoint restore');
        expect(code, out).toBe(0);
        expect(junitErrors(readFileSync(join(app, 'contracts.xml'), 'utf8'))).toEqual([]);
        expect(ctrfErrors(JSON.parse(readFileSync(join(app, 'contracts.json'), 'utf8')))).toEqual([]);
      } finally {
        for (const peer of peers) rmSync(peer, { force: true });
      }
    });

    it('logs JSON lines and stops on SIGTERM with exit code 0', async () => {
      const ended = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
      // npx runs the sandbox as its child: the signal goes to the sandbox (its pid is in the lock file), as an
      // orchestrator's would to a container running it directly; npx then exits with its code.
      const sandbox = runningServer(join(data(), 'db.json'));
      expect(sandbox?.origin).toBe(origin);
      process.kill(sandbox?.pid as number, 'SIGTERM');
      expect(await ended).toBe(0);
      expect(jsonLines(output.stdout()).some((l) => l.msg === 'request' && l.operation === 'listPets')).toBe(true);
    });
  });
});

describe('the package as a library, in a TypeScript project', { timeout: 180_000 }, () => {
  const run = (args: string[]) => spawnSync(process.execPath, args, { cwd: app, encoding: 'utf8', timeout: 120_000 });
  const ENTRIES = ['index', 'middleware', 'cli', 'msw'];
  /** The entries Vitest loads: the global setup runs the engine; the worker's side and its setup file only talk to it over HTTP. */
  const VITEST_ENGINE = ['vitest-global-setup'];
  const VITEST_LIGHT = ['vitest', 'vitest-setup'];
  /** The Testcontainers entry runs the sandbox in a container: it loads the control plane's client, never the engine. */
  const CONTAINER_LIGHT = ['testcontainers'];

  it('ships one declaration file per entry that imports nothing of the sources, only Node, the dependencies and the optional peers', () => {
    const installed = join(app, 'node_modules', 'petstore-sandbox');
    const manifest = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as Record<'dependencies' | 'peerDependencies', Record<string, string>>;
    const dependencies = { ...manifest.dependencies, ...manifest.peerDependencies };
    for (const entry of [...ENTRIES, 'playwright', 'playwright-global-setup', 'vitest', 'vitest-global-setup', 'testcontainers']) {
      const text = readFileSync(join(installed, 'dist', `${entry}.d.ts`), 'utf8');
      const specifiers = [...text.matchAll(/(?:from|import\()\s*['"]([^'"]+)['"]/g)].map((m) => m[1] as string);
      const foreign = specifiers.filter((s) => !s.startsWith('node:') && !Object.hasOwn(dependencies, s.replace(/^((?:@[^/]+\/)?[^/]+).*$/, '$1')));
      expect(foreign, `${entry}.d.ts`).toEqual([]);
      expect(text, `${entry}.d.ts`).not.toMatch(/\bsrc\//);
    }
  });

  it('runs one engine: every entry and the executable import the one chunk that holds it', () => {
    const dist = join(app, 'node_modules', 'petstore-sandbox', 'dist');
    const chunks = readdirSync(join(dist, 'chunks')).map((name) => ({ name, size: statSync(join(dist, 'chunks', name)).size }));
    const engine = chunks.sort((a, b) => b.size - a.size)[0]?.name as string;
    for (const entry of [...ENTRIES, ...VITEST_ENGINE].map((e) => `${e}.js`).concat('src/bin.js')) {
      expect(readFileSync(join(dist, entry), 'utf8'), entry).toContain(`chunks/${engine}`);
      // An entry is a few lines: the code is in the chunks.
      expect(statSync(join(dist, entry)).size, entry).toBeLessThan(10_000);
    }
    // Vitest loads these again for each test file: the control plane's client, never the engine.
    for (const entry of [...VITEST_LIGHT, ...CONTAINER_LIGHT].map((e) => `${e}.js`))
      expect(readFileSync(join(dist, entry), 'utf8'), entry).not.toContain(`chunks/${engine}`);
  });

  /** A dev dependency of the user's project: this repository's, linked in once npm has installed the rest (the package comes from the tarball). */
  const linkFromRoot = (name: string) => {
    const linked = join(app, 'node_modules', name);
    if (!existsSync(linked)) symlinkSync(join(ROOT, 'node_modules', name), linked, 'dir');
  };
  const tsc = (tsconfig: string) => run([join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', tsconfig]);

  it.each(Object.keys(TSCONFIGS))('type-checks the example against the shipped declarations (%s, strict)', (tsconfig) => {
    linkFromRoot('msw'); // the page's MSW
    const checked = tsc(tsconfig);
    expect(checked.status, checked.stdout + checked.stderr).toBe(0);
  });

  it('refuses the page that uses createBrowserSandbox under bundler resolution without the browser condition, as the docs say', () => {
    linkFromRoot('msw');
    const checked = tsc(Object.keys(PAGE_WITHOUT_BROWSER)[0] as string);
    expect(checked.status).not.toBe(0);
    expect(checked.stdout).toContain(`Module '"petstore-sandbox/msw"' has no exported member 'createBrowserSandbox'`);
  });

  it('runs the example with Node', () => {
    const example = run(['example.ts']);
    expect(example.status, example.stdout + example.stderr).toBe(0);
    expect(example.stdout).toContain('example: ok');
  });

  it("runs the README's Vitest example against the installed package, with Vitest", () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8').split('## Use it in a test suite')[1] ?? '';
    const snippet = /```ts\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(snippet, 'the README has a ts block under "Use it in a test suite"').toBeDefined();
    // The user's project has Vitest as a dev dependency: this repository's, linked in (the package itself comes from the tarball).
    linkFromRoot('vitest');
    writeFileSync(join(app, 'pets.test.ts'), snippet as string);
    const vitest = run([join(ROOT, 'node_modules', 'vitest', 'vitest.mjs'), 'run', 'pets.test.ts', '--reporter', 'verbose']);
    expect(vitest.status, vitest.stdout + vitest.stderr).toBe(0);
    // Vitest colours its report: the escape sequences go before the test's name is looked for.
    expect(stripVTControlCharacters(vitest.stdout)).toMatch(/✓ .*a created pet can be read back/);
  });

  it('imports petstore-sandbox, its middleware and petstore-sandbox/cli without starting anything: the process ends on its own, having printed nothing', () => {
    const imported = run(['import-only.mjs']);
    expect(imported.error).toBeUndefined();
    expect({ status: imported.status, stdout: imported.stdout, stderr: imported.stderr }).toEqual({ status: 0, stdout: '', stderr: '' });
  });
});
