/**
 * The servers under test, each its own process on 127.0.0.1 and an
 * ephemeral port: the sandbox (built, `dist/src/bin.js`), the Prism mock on
 * the same spec, and the minimal Express app (the other peers: peers.ts).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { PACKAGE_ROOT } from '../../src/config/paths.js';
import { awaitStartLine, collectOutput, type Output } from '../support/spawn.js';
import { cpuTime, peakRss } from './proc-stat.js';

export const AUTH = 'Bearer sandbox-key';
export const SANDBOX_BIN = join(PACKAGE_ROOT, 'dist', 'src', 'bin.js');
const PRISM_BIN = join(PACKAGE_ROOT, 'node_modules', '@stoplight', 'prism-cli', 'dist', 'index.js');
const BASELINE = join(PACKAGE_ROOT, 'test', 'bench', 'baseline-server.ts');
const BARE = join(PACKAGE_ROOT, 'test', 'bench', 'bare-server.ts');

export interface ServerProcess {
  name: string;
  origin: string;
  /** Where the interface's paths start: `<origin>/v1`, or the origin for Prism (it serves the spec's paths as written). */
  base: string;
  pid: number;
  /** Process start (spawn) to the first 200 on GET <base>/pets, ms. */
  readyMs: number;
  /** Peak resident set size so far (Linux VmHWM), MB; undefined elsewhere. */
  peakRssMb(): number | undefined;
  /** CPU time the process has used so far (user and system, Linux), ms; undefined elsewhere. */
  cpuMs(): number | undefined;
  /** CPU time of the database server it stores in (PostgreSQL and its backends), ms; counted apart from the process's own. */
  dbCpuMs?(): number | undefined;
  stop(): Promise<void>;
}

const running = new Set<ChildProcess>();

/** Kills whatever is still running (on a failure or Ctrl-C). */
export function killAll(): void {
  for (const child of running) child.kill('SIGKILL');
}

/** A free TCP port on 127.0.0.1, for servers that cannot be told port 0. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

export async function firstOk(url: string, deadline: number, child: ChildProcess, failed = (): Error | undefined => undefined): Promise<void> {
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${url}: the server exited with code ${child.exitCode}`);
    const error = failed();
    if (error) throw error;
    try {
      const res = await fetch(url, { headers: { authorization: AUTH } });
      await res.arrayBuffer();
      if (res.status === 200) return;
    } catch {
      // Not listening yet.
    }
    if (performance.now() > deadline) throw new Error(`${url} did not answer 200 in time`);
    await new Promise((r) => setTimeout(r, 2));
  }
}

export interface SpawnSpec {
  name: string;
  /** The program to run, `node` (this one) unless said (WireMock's `java`). */
  command?: string;
  args: string[];
  /** Its working directory, the package's unless said. */
  cwd?: string;
  /** Known origin; without it, the origin of the start-up line it prints (`listening on <origin>/v1`). */
  origin?: string;
  /** Path prefix of the interface on that origin. */
  prefix: string;
  timeoutMs: number;
  /** Extra environment variables. */
  env?: Record<string, string>;
  /** An open file descriptor to write its stdout to, instead of a pipe that is drained. */
  stdout?: number;
}

/** Stdout read and dropped, stderr kept. */
function drainOutput(child: ChildProcess): Output {
  let errors = '';
  child.stdout?.resume();
  child.stderr?.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  return { all: () => errors, stdout: () => '', stderr: () => errors };
}

/** Spawns `node` (or `spec.command`) with `spec.args` and waits for its first 200 on GET <base>/pets (exported for the profiling run, profile-run.ts). */
export async function start(spec: SpawnSpec): Promise<ServerProcess> {
  const t0 = performance.now();
  const stdio = ['ignore', spec.stdout ?? 'pipe', 'pipe'] as const;
  const options = { cwd: spec.cwd ?? PACKAGE_ROOT, stdio: [...stdio], env: { ...process.env, ...spec.env } };
  const child = spawn(spec.command ?? process.execPath, spec.args, options);
  running.add(child);
  // A program that cannot be run (ENOENT) never exits: it fails here, not after the whole timeout.
  const exited = new Promise<void>((resolve) => (child.once('exit', () => resolve()), child.once('error', () => resolve())));
  let spawnError: Error | undefined;
  child.once('error', (error) => (spawnError = error));
  void exited.then(() => running.delete(child));
  // Collected from the start, which also keeps the pipes flowing. A server whose origin is known may log every
  // request: its stdout is drained (as a container runtime would) but not kept.
  const output = spec.origin === undefined ? collectOutput(child) : drainOutput(child);
  const deadline = t0 + spec.timeoutMs;
  try {
    const origin = spec.origin ?? (await awaitStartLine(child, output, spec.timeoutMs));
    await firstOk(`${origin}${spec.prefix}/pets`, deadline, child, () => spawnError);
    const readyMs = performance.now() - t0;
    const pid = child.pid ?? 0;
    return {
      name: spec.name,
      origin,
      base: `${origin}${spec.prefix}`,
      pid,
      readyMs,
      peakRssMb: () => peakRss(pid),
      cpuMs: () => cpuTime(pid),
      stop: async () => {
        if (child.exitCode !== null) return;
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
        await exited;
        clearTimeout(timer);
      },
    };
  } catch (error) {
    child.kill('SIGKILL');
    await exited;
    throw new Error(`${spec.name} did not start: ${(error as Error).message}\n${output.all().slice(-2000)}`, { cause: error });
  }
}

let logDir: string | undefined;
let logs = 0;
/** A new file for one server's stdout (its request log), in a folder of the bench's own, removed when the bench exits. */
export function logFile(name: string): { fd: number; remove(): void } {
  if (logDir === undefined) {
    const dir = mkdtempSync(join(tmpdir(), 'petstore-bench-logs-'));
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    logDir = dir;
  }
  const path = join(logDir, `${(logs += 1)}-${name.replace(/\W+/g, '-')}.log`);
  const fd = openSync(path, 'w');
  return { fd, remove: () => (closeSync(fd), rmSync(path, { force: true })) };
}

/**
 * The sandbox in stateful mode on `store`: a data file (`--data`; a missing file is seeded with `count` pets) or a PostgreSQL URL
 * (`--store postgres://…`; a workspace is seeded with `count` pets on its first use, here the start's first GET). `bin` may be another
 * build, to compare; `extraArgs` go after the others (the soak's `--open-keys`, say). It runs with its default settings: the request
 * log on, a JSON line per request on its stdout, which goes to a file (as a container runtime keeps a container's output), removed when
 * it stops. `requestLog: false` turns the log off (`--log-level warn`), to measure what the log costs.
 */
export async function startSandbox(
  store: string,
  count = 50,
  name = 'sandbox',
  bin = SANDBOX_BIN,
  requestLog = true,
  extraArgs: string[] = [],
): Promise<ServerProcess> {
  const port = await freePort();
  const where = store.startsWith('postgres://') ? ['--store', store] : ['--data', store];
  // The sandbox makes one missing folder at most: the bench's nest deeper (peers/sandbox/db.json).
  if (!store.startsWith('postgres://')) mkdirSync(dirname(store), { recursive: true });
  const log = logFile(name);
  const quiet = requestLog ? [] : ['--log-level', 'warn'];
  try {
    const server = await start({
      name,
      args: [bin, '--port', String(port), ...where, '--count', String(count), '--mode', 'stateful', ...quiet, ...extraArgs],
      origin: `http://127.0.0.1:${port}`,
      prefix: '/v1',
      timeoutMs: 120_000,
      stdout: log.fd,
    });
    return { ...server, stop: async () => (await server.stop(), log.remove()) };
  } catch (error) {
    log.remove();
    throw error;
  }
}

/**
 * Prism's mock of spec/openapi.yaml in static mode, with its per-request
 * log lines off (`-v silent`), as the bench has always run it: the sandbox
 * logs each request, so the comparison is the stricter on the sandbox.
 */
export async function startPrism(): Promise<ServerProcess> {
  const port = await freePort();
  return start({
    name: 'prism',
    args: [PRISM_BIN, 'mock', '-h', '127.0.0.1', '-p', String(port), '-v', 'silent', join(PACKAGE_ROOT, 'spec', 'openapi.yaml')],
    origin: `http://127.0.0.1:${port}`,
    prefix: '',
    timeoutMs: 60_000,
  });
}

/** The bare node:http handler (bare-server.ts): the runtime's ceiling. */
export function startBare(prebuilt = false): Promise<ServerProcess> {
  return start({ name: 'node:http', args: ['--import', 'tsx', BARE], prefix: '/v1', timeoutMs: 60_000, env: prebuilt ? { BARE_PREBUILT: '1' } : {} });
}

/** The minimal Express 5 app (baseline-server.ts). */
export function startBaseline(): Promise<ServerProcess> {
  return start({ name: 'express', args: ['--import', 'tsx', BASELINE], prefix: '/v1', timeoutMs: 60_000 });
}
