/**
 * The package installed as its pages say, into an empty project: the line
 * of docs/test-runners.md's MSW section (the packed tarball in place of its
 * path), which brings msw from the registry beside it. What that installs is
 * held to the footprint budget of docs/installing.md; then the README's
 * Vitest example and the MSW recipe run there, with Vitest (linked in: a
 * test runner is not part of the budget). The optional peers are not
 * installed, and each feature that needs one names the npm command. The
 * tarball itself passes publint, Are the Types Wrong and
 * `npm publish --dry-run`. Slow (a build, then an install from the
 * registry or npm's cache): generous timeouts.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { installCommand, OPTIONAL_PEERS } from '../../src/config/optional-peers.js';
import { TRACING_PEERS } from '../../src/ops/tracing.js';
import { tempDir } from '../support/harness.js';
import { npm, packTarball, userProjectEnv } from '../support/npm-package.js';
import { ROOT } from '../support/spawn.js';

/** The budget docs/installing.md states: what the documented line installs, msw included (msw 3 alone: about 49 packages, 18 MB). */
const BUDGET = { packages: 60, megabytes: 40 };

let app: string;
let tarball: string;
let footprint: { packages: number; megabytes: number };

/** A section of a page: from its heading to the next heading of its level. */
function section(file: string, heading: string): string {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const start = text.indexOf(`\n${heading}\n`);
  if (start < 0) throw new Error(`${file} has no heading "${heading}"`);
  const level = /^#+/.exec(heading)?.[0] as string;
  const rest = text.slice(start + heading.length + 2);
  const end = rest.search(new RegExp(`^${level} `, 'm'));
  return end < 0 ? rest : rest.slice(0, end);
}

/** The first fenced block of `language` in `text`. */
function block(text: string, language: string): string {
  const found = new RegExp(`\`\`\`${language}\\n([\\s\\S]*?)\`\`\``).exec(text)?.[1];
  if (found === undefined) throw new Error(`no \`\`\`${language} block`);
  return found;
}

/** The documented install line of a section, as arguments, the tarball's path in place of the one it names. */
function installLine(text: string): string[] {
  const line = block(text, 'sh')
    .split('\n')
    .find((l) => /^npm install --save-dev .*petstore-sandbox-[\d.]+\.tgz/.test(l));
  if (line === undefined) throw new Error('no `npm install --save-dev … petstore-sandbox-<version>.tgz` line');
  return line
    .replace(/\s+#.*$/, '')
    .split(/\s+/)
    .slice(1)
    .map((arg) => (/petstore-sandbox-[\d.]+\.tgz$/.test(arg) ? tarball : arg));
}

/** Every file's size under `dir`, summed (as `du --apparent-size`). */
function bytesUnder(dir: string): number {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .reduce((sum, entry) => sum + statSync(join(entry.parentPath, entry.name)).size, 0);
}

const run = (args: string[], env: NodeJS.ProcessEnv = userProjectEnv()) =>
  spawnSync(process.execPath, args, { cwd: app, env, encoding: 'utf8', timeout: 120_000 });
const npx = (args: string[]) => spawnSync('npx', ['--no-install', ...args], { cwd: app, env: userProjectEnv(), encoding: 'utf8', timeout: 120_000 });

beforeAll(() => {
  tarball = packTarball();
  app = tempDir('petstore-documented-install-');
  writeFileSync(join(app, 'package.json'), `${JSON.stringify({ name: 'a-frontend', private: true, type: 'module' }, null, 2)}\n`);
  npm(
    [
      ...installLine(section('docs/test-runners.md', '## MSW: the sandbox in the test process (`petstore-sandbox/msw`)')),
      '--no-audit',
      '--no-fund',
      '--prefer-offline',
    ],
    app,
  );
  const lock = JSON.parse(readFileSync(join(app, 'node_modules', '.package-lock.json'), 'utf8')) as { packages: Record<string, unknown> };
  footprint = {
    packages: Object.keys(lock.packages).filter((path) => path.startsWith('node_modules/')).length,
    megabytes: Math.round((bytesUnder(join(app, 'node_modules')) / 1e6) * 10) / 10,
  };
  console.log(`documented install (the package and msw): ${footprint.packages} packages, ${footprint.megabytes} MB`);
  // The user's test runner, not part of the budget: this repository's Vitest, linked in.
  symlinkSync(join(ROOT, 'node_modules', 'vitest'), join(app, 'node_modules', 'vitest'), 'dir');
}, 600_000);

describe('the package, installed by the documented line', { timeout: 180_000 }, () => {
  it('installs msw and the package within the footprint budget, with none of the optional peers', () => {
    expect(footprint.packages).toBeLessThanOrEqual(BUDGET.packages);
    expect(footprint.megabytes).toBeLessThanOrEqual(BUDGET.megabytes);
    expect(existsSync(join(app, 'node_modules', 'msw'))).toBe(true);
    for (const peer of [...Object.keys(OPTIONAL_PEERS), 'express', 'dredd']) expect(existsSync(join(app, 'node_modules', peer)), peer).toBe(false);
  });

  it("runs the README's Vitest example and the MSW recipe with Vitest", () => {
    writeFileSync(join(app, 'pets.test.ts'), block(section('README.md', '## Use it in a test suite'), 'ts'));
    writeFileSync(join(app, 'msw.test.ts'), block(section('docs/test-runners.md', '## MSW: the sandbox in the test process (`petstore-sandbox/msw`)'), 'ts'));
    const vitest = run([join(app, 'node_modules', 'vitest', 'vitest.mjs'), 'run', '--reporter', 'verbose']);
    const output = stripVTControlCharacters(vitest.stdout + vitest.stderr);
    expect(vitest.status, output).toBe(0);
    expect(output).toMatch(/✓ .*pets\.test\.ts.*a created pet can be read back/);
    expect(output).toMatch(/✓ .*msw\.test\.ts.*shows the error of a failing create/);
  });

  it('names the npm command of each optional peer a feature needs, and stays usable without it', () => {
    const data = join(tempDir('petstore-no-peers-'), 'db.json');
    const prism = npx(['petstore-sandbox', '--mode', 'example', '--port', '0', '--data', data]);
    expect({ status: prism.status, stderr: prism.stderr }).toEqual({
      status: 2,
      stderr: expect.stringContaining('Install: npm install --save-dev @stoplight/prism-http@^5.16.0 @stoplight/prism-core@^5.16.0'),
    });
    // A start refused for a missing peer leaves nothing behind: no seeded data file, no secret, no lock.
    expect(readdirSync(dirname(data))).toEqual([]);
    const postgres = npx(['petstore-sandbox', '--store', 'postgres://user@127.0.0.1:9/pets', '--port', '0']);
    expect({ status: postgres.status, stderr: postgres.stderr }).toEqual({
      status: 2,
      stderr: expect.stringContaining(
        'needs pg, an optional peer dependency of petstore-sandbox, not installed here. Install: npm install --save-dev pg@^8.23.1',
      ),
    });
    // Traces asked for by OpenTelemetry's variable: refused before anything is written, naming the SDK's packages.
    const traced = run([join(app, 'node_modules', 'petstore-sandbox', 'dist', 'src', 'bin.js'), '--port', '0', '--data', data], {
      ...userProjectEnv(),
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9',
    });
    expect({ status: traced.status, stderr: traced.stderr }).toEqual({
      status: 2,
      stderr: expect.stringContaining(`optional peer dependencies of petstore-sandbox, not installed here. Install: ${installCommand(TRACING_PEERS)}`),
    });
    expect(readdirSync(dirname(data))).toEqual([]);
    const mcp = npx(['petstore-sandbox', 'mcp', '--url', 'http://127.0.0.1:9']);
    expect({ status: mcp.status, stderr: mcp.stderr }).toEqual({
      status: 2,
      stderr: expect.stringContaining('Install: npm install --save-dev @modelcontextprotocol/sdk@^1.32.2'),
    });
    // In the library, a request that needs Prism is answered 501 with the same command; the rest is served.
    writeFileSync(
      join(app, 'no-prism.mjs'),
      `import { createSandbox } from 'petstore-sandbox';
const sandbox = await createSandbox({ seed: 1, count: 2 });
const headers = { authorization: 'Bearer sandbox-key' };
const example = await sandbox.fetch('/v1/pets/1', { headers: { ...headers, prefer: 'code=404' } });
const listed = await sandbox.fetch('/v1/pets', { headers });
console.log(JSON.stringify({ example: [example.status, await example.json()], listed: listed.status }));
await sandbox.close();
`,
    );
    const library = run(['no-prism.mjs']);
    expect(library.status, library.stderr).toBe(0);
    expect(JSON.parse(library.stdout)).toEqual({
      example: [501, { code: 'not_implemented', status: 501, message: expect.stringContaining('npm install --save-dev @stoplight/prism-http@^5.16.0') }],
      listed: 200,
    });
  });
});

describe('the tarball, as a registry would take it', { timeout: 180_000 }, () => {
  const bin = (name: string) => join(ROOT, 'node_modules', '.bin', name);

  it('passes publint, strict (a warning fails)', () => {
    const lint = spawnSync(bin('publint'), ['run', tarball, '--strict', '--level', 'warning'], { encoding: 'utf8', timeout: 120_000 });
    expect(lint.status, lint.stdout + lint.stderr).toBe(0);
  });

  it('passes Are the Types Wrong for an ESM-only package: every entry resolves to its types under node16 and bundler', () => {
    const attw = spawnSync(bin('attw'), [tarball, '--profile', 'esm-only', '--format', 'ascii', '--no-color'], { encoding: 'utf8', timeout: 120_000 });
    expect(attw.status, attw.stdout + attw.stderr).toBe(0);
  });

  it('publishes cleanly, dry run: no warning but the missing login', () => {
    const publish = spawnSync('npm', ['publish', '--dry-run', tarball], { cwd: tempDir('petstore-publish-'), encoding: 'utf8', timeout: 120_000 });
    expect(publish.status, publish.stdout + publish.stderr).toBe(0);
    const warnings = publish.stderr.split('\n').filter((line) => line.startsWith('npm warn') && !/requires you to be logged in/.test(line));
    expect(warnings).toEqual([]);
  });
});
