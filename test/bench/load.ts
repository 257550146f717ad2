/**
 * Load from a separate process: the autocannon CLI, bounded by its
 * duration, on loopback. The servers under test and the process that
 * drives the bench share no event loop with it.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../../src/config/paths.js';
import { AUTH } from './processes.js';

const AUTOCANNON = join(PACKAGE_ROOT, 'node_modules', 'autocannon', 'autocannon.js');
const CROSS_LOAD = join(PACKAGE_ROOT, 'test', 'bench', 'cross-load.ts');

export interface LoadSpec {
  url: string;
  connections: number;
  durationSec: number;
  /** A JSON body makes it a POST. */
  body?: string;
}

export interface LoadResult {
  /** Mean requests per second over the run (2xx and others). */
  rps: number;
  p50: number;
  p99: number;
  requests: number;
  /** Answers that were not 2xx, and socket errors/timeouts: must be 0. */
  non2xx: number;
  errors: number;
  /** Server CPU time per request, µs (user and system), where it could be read. */
  cpuUs?: number;
  /** CPU time per request of the database server the sandbox stores in (PostgreSQL), µs: not in `cpuUs`. */
  dbCpuUs?: number;
  /** The req/s of each round, in round order (scenarios.ts `compare`): ratios are taken within a round. */
  roundRps?: number[];
}

interface AutocannonJson {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number };
  non2xx: number;
  errors: number;
  timeouts: number;
}

export async function runLoad(spec: LoadSpec): Promise<LoadResult> {
  const args = [
    AUTOCANNON,
    '--json',
    '--no-progress',
    '-c',
    String(spec.connections),
    '-d',
    String(spec.durationSec),
    '-t',
    '10',
    '-H',
    `authorization=${AUTH}`,
  ];
  if (spec.body !== undefined) args.push('-m', 'POST', '-H', 'content-type=application/json', '-b', spec.body);
  args.push(spec.url);
  const r = JSON.parse(await runBounded('autocannon', args, spec.durationSec)) as AutocannonJson;
  return {
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    requests: r.requests.total,
    non2xx: r.non2xx,
    errors: r.errors + r.timeouts,
  };
}

/** The cross-instance chain (cross-load.ts): pairs per second and pair latency as `rps`, `p50`, `p99`; a read that differs counts as an error. */
export async function runCross(spec: { create: string; read: string; connections: number; durationSec: number; body: string }): Promise<LoadResult> {
  const args = ['--import', 'tsx', CROSS_LOAD, JSON.stringify({ ...spec, auth: AUTH })];
  const result = JSON.parse(await runBounded('cross-load', args, spec.durationSec)) as LoadResult & { mismatches: number; firstProblem?: string };
  if (result.firstProblem) console.error(`  cross-load: ${result.non2xx} non-2xx, ${result.mismatches} reads differing, first: ${result.firstProblem}`);
  return { rps: result.rps, p50: result.p50, p99: result.p99, requests: result.requests, non2xx: result.non2xx, errors: result.errors };
}

/** Runs a load process (`node` with `args`) for its run plus a margin, then kills it; its stdout, or an error with its stderr. */
async function runBounded(name: string, args: string[], durationSec: number): Promise<string> {
  const child = spawn(process.execPath, args, { cwd: PACKAGE_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => void (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => void (err += chunk.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), (durationSec + 30) * 1000);
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  clearTimeout(timer);
  if (code !== 0) throw new Error(`${name} exited with ${code}: ${err.slice(-1000)}`);
  return out;
}

/** The median of numbers (the middle round damps one noisy round). */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  if (sorted.length === 0) return Number.NaN;
  return sorted.length % 2 ? (sorted[mid] ?? Number.NaN) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

/** The median over rounds of `a`'s req/s over `b`'s in the same round (both ran moments apart, on the same machine state). */
export function roundRatio(a: LoadResult | undefined, b: LoadResult | undefined): number {
  const bs = b?.roundRps ?? [];
  return median((a?.roundRps ?? []).slice(0, bs.length).map((rps, i) => rps / (bs[i] ?? Number.NaN)));
}

/** Median of each metric over rounds; errors are summed. */
export function combine(rounds: LoadResult[]): LoadResult {
  return {
    rps: median(rounds.map((r) => r.rps)),
    p50: median(rounds.map((r) => r.p50)),
    p99: median(rounds.map((r) => r.p99)),
    requests: rounds.reduce((n, r) => n + r.requests, 0),
    non2xx: rounds.reduce((n, r) => n + r.non2xx, 0),
    errors: rounds.reduce((n, r) => n + r.errors, 0),
    ...(rounds.every((r) => r.cpuUs !== undefined) ? { cpuUs: median(rounds.map((r) => r.cpuUs as number)) } : {}),
    ...(rounds.every((r) => r.dbCpuUs !== undefined) ? { dbCpuUs: median(rounds.map((r) => r.dbCpuUs as number)) } : {}),
    roundRps: rounds.map((r) => r.rps),
  };
}
