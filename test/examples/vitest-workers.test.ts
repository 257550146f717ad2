/**
 * `petstore-sandbox/vitest` in a real Vitest run: a user's project (the
 * files of test/examples/vitest-workers/, its test file copied twelve times)
 * with the packed package installed, run by Vitest on 4 forked workers.
 * Twice in a row against one running sandbox, then each worker's journal is
 * read with the admin token: no worker's pets may show in another's
 * workspace, neither in what it was sent nor in what it answered. The same
 * run with every worker on one key shows that check failing. Once more with
 * the package's own global setup, which starts a sandbox for the run and
 * closes it after.
 */
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../support/harness.js';
import { npm, packTarball, userProjectEnv } from '../support/npm-package.js';
import { collectOutput, ROOT, spawnSandbox, stopSandbox, type ChildSandbox } from '../support/spawn.js';
import { crossWorkerLeaks, journalsOf, type WorkerRecord } from '../support/worker-journals.js';

const FILES = 12;
const ADMIN = 'sandbox-admin';
let project: string;
let sandbox: ChildSandbox;

beforeAll(async () => {
  const tarball = packTarball();
  project = tempDir('petstore-vitest-workers-');
  cpSync(join(ROOT, 'test', 'examples', 'vitest-workers'), project, { recursive: true });
  const template = join(project, 'pets.check.js');
  for (let i = 1; i <= FILES; i++) cpSync(template, join(project, `pets-${String(i).padStart(2, '0')}.check.js`));
  rmSync(template);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'vitest-workers', private: true, type: 'module' }));
  npm(['install', '--omit=dev', '--no-audit', '--no-fund', '--prefer-offline', tarball], project);
  // The user's Vitest: this repository's, linked in (the package itself comes from the tarball).
  symlinkSync(join(ROOT, 'node_modules', 'vitest'), join(project, 'node_modules', 'vitest'), 'dir');
  sandbox = await spawnSandbox(join(tempDir(), 'db.json'), ['--store', 'memory', '--open-keys', '--count', '3', '--admin-token', ADMIN]);
}, 600_000);

afterAll(async () => {
  if (sandbox) await stopSandbox(sandbox);
});

/** One Vitest run of the project on 4 forked workers; resolves with its exit code, its output and what its files recorded. */
async function runVitest(env: Record<string, string>): Promise<{ code: number | null; output: string; records: WorkerRecord[] }> {
  const results = tempDir('petstore-vitest-results-');
  const vitest = join(project, 'node_modules', 'vitest', 'vitest.mjs');
  const child = spawn(process.execPath, [vitest, 'run', '--pool', 'forks', '--maxWorkers', '4'], {
    cwd: project,
    env: userProjectEnv({ RESULTS_DIR: results, ...env }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = collectOutput(child);
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  const records = readdirSync(results).map((name) => JSON.parse(readFileSync(join(results, name), 'utf8')) as WorkerRecord);
  return { code, output: stripVTControlCharacters(output.all()), records };
}

/** A test's TypeScript with the vitest entries: what `inject` gives is typed, a value that is not provided does not compile. */
const TYPED = `import { inject } from 'vitest';
import { sandboxContext, sandboxWorkspace, type SandboxContext, type Workspace } from 'petstore-sandbox/vitest';
import { defineSandboxSetup, type SandboxSetupOptions } from 'petstore-sandbox/vitest/global-setup';

const options: SandboxSetupOptions = { seed: 1, count: 3, options: { 'journal-size': 500 } };
export const setup = defineSandboxSetup(options);
const baseUrl: string = inject('petstoreSandbox').baseUrl;
const context: SandboxContext = sandboxContext();
const key: string = context.key;
const workspace: Workspace = sandboxWorkspace();
export const used = [baseUrl, key, workspace.journal.read({ limit: 5 })];
// @ts-expect-error: the sandbox provides no such value
export const missing = inject('petstoreSandbox').port;
`;

const against = (run: number) => ({ SANDBOX_URL: sandbox.origin, SANDBOX_ADMIN_TOKEN: ADMIN, FIXTURE_RUN: String(run), FIXTURE_SEEDED: '3' });

describe('petstore-sandbox/vitest on 4 workers', { timeout: 300_000 }, () => {
  it('keeps each worker on a workspace of its own, run after run: no journal shows another worker’s pets', async () => {
    const records: WorkerRecord[] = [];
    for (const run of [1, 2]) {
      const result = await runVitest(against(run));
      expect(result.code, result.output).toBe(0);
      expect(result.output).toMatch(new RegExp(`Tests +${FILES * 2} passed`));
      expect(result.records).toHaveLength(FILES);
      // Four workers, each with its own key, a new one each run.
      expect(new Set(result.records.map((r) => r.tag)).size, result.output).toBe(4);
      expect(new Set(result.records.map((r) => r.key)).size).toBe(4);
      records.push(...result.records);
    }
    expect(new Set(records.map((r) => r.key)).size).toBe(8);
    const journals = await journalsOf(sandbox.origin, ADMIN, new Set(records.map((r) => r.key)));
    expect(crossWorkerLeaks(records, journals)).toEqual([]);
  });

  it('shows the check failing when every worker shares one key', async () => {
    const result = await runVitest({ ...against(3), SHARE_ONE_KEY: '1' });
    expect(new Set(result.records.map((r) => r.key)).size).toBe(1);
    expect(new Set(result.records.map((r) => r.tag)).size, result.output).toBeGreaterThan(1);
    const journals = await journalsOf(sandbox.origin, ADMIN, new Set(result.records.map((r) => r.key)));
    expect(crossWorkerLeaks(result.records, journals).length).toBeGreaterThan(0);
  });

  it('types what the tests inject and the setup’s options, from the shipped declarations', () => {
    writeFileSync(join(project, 'typed.ts'), TYPED);
    // Vitest's own declarations name packages this project need not have (Vite's optional ones): they are not checked here.
    const compilerOptions = { strict: true, noEmit: true, skipLibCheck: true, module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', types: [] };
    writeFileSync(join(project, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['typed.ts'] }));
    const tsc = spawnSync(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json'], {
      cwd: project,
      encoding: 'utf8',
    });
    expect(tsc.status, tsc.stdout + tsc.stderr).toBe(0);
  });

  it('with the package’s own global setup: one sandbox for the run, closed when the run ends', async () => {
    const result = await runVitest({ FIXTURE_RUN: '4' });
    expect(result.code, result.output).toBe(0);
    const urls = new Set(result.records.map((r) => new URL(r.url).origin));
    expect(urls.size).toBe(1);
    const [url] = urls as Set<string>;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    await expect(fetch(`${url}/livez`)).rejects.toThrow();
  });
});
