/**
 * The ready time a person or a script sees: `npm start` with the build
 * current, from the spawn of npm to the first 200 on GET /v1/pets. It
 * counts npm, the build check (scripts/build.mjs, which finds nothing to do
 * after the bench's own build) and the sandbox's start. The sandbox runs at
 * `--log-level warn` and is found by its start-up line, as a script would;
 * it is stopped by the pid its `--ready-file` names.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { PACKAGE_ROOT } from '../../src/config/paths.js';
import { awaitStartLine, collectOutput } from '../support/spawn.js';
import { median } from './load.js';
import { firstOk } from './processes.js';
import { maxTarget, type Measure, type Target } from './report.js';
import type { BenchOptions } from './scenarios.js';

/** The bound: a second `npm start` is ready in under 2 s. */
const NPM_START_MAX_MS = 2000;

/** npm's own script: the one running this bench under `npm run`, else the one installed beside node. */
const NPM_CLI =
  process.env.npm_execpath?.endsWith('.js') ?
    process.env.npm_execpath
  : join(dirname(process.execPath), '..', 'lib', 'node_modules', 'npm', 'bin', 'npm-cli.js');

/** One `npm start` on `dataFile`, to its first 200; stopped (SIGTERM to the sandbox, then npm ends) before it returns. */
async function oneStart(dataFile: string): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-npm-start-'));
  const ready = join(dir, 'ready.json');
  const args = ['start', '--silent', '--', '--port', '0', '--data', dataFile, '--log-level', 'warn', '--log-format', 'json', '--ready-file', ready];
  const t0 = performance.now();
  const child = spawn(process.execPath, [NPM_CLI, ...args], { cwd: PACKAGE_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const output = collectOutput(child);
  try {
    const origin = await awaitStartLine(child, output, 120_000);
    await firstOk(`${origin}/v1/pets`, t0 + 120_000, child);
    return performance.now() - t0;
  } finally {
    if (existsSync(ready)) process.kill((JSON.parse(readFileSync(ready, 'utf8')) as { pid: number }).pid, 'SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    await exited;
    clearTimeout(timer);
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The median over `opts.starts` starts, as a measure and checked against the 2 s bound. */
export async function npmStartReady(opts: BenchOptions, dataFile: string): Promise<{ all: number[]; measure: Measure; target: Target }> {
  const all: number[] = [];
  for (let i = 0; i < opts.starts; i++) all.push(await oneStart(dataFile));
  const ms = median(all);
  return {
    all,
    measure: { name: `ready, \`npm start\` with a current build (seeded store, 50 pets), median of ${opts.starts}`, value: ms, unit: 'ms' },
    target: maxTarget('ready time, npm start with a current build', ms, NPM_START_MAX_MS, 'ms'),
  };
}
