/**
 * The in-process rows: a library sandbox (memory store) answering through
 * `sandbox.fetch` and through the engine's `handle`, with no socket, for a
 * list, a read by id and a create; each load in a process of its own
 * (in-process-load.ts), rounds alternated, the median kept.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { PACKAGE_ROOT } from '../../src/config/paths.js';
import { median, type LoadResult } from './load.js';
import type { BenchOptions } from './scenarios.js';

const run = promisify(execFile);
const SCRIPT = join(PACKAGE_ROOT, 'test', 'bench', 'in-process-load.ts');
const TSX = join(PACKAGE_ROOT, 'node_modules', 'tsx', 'dist', 'esm', 'index.mjs');

/** The scenario's name, as rows and targets name it. */
export const IN_PROCESS = 'in process, memory store, 50 in flight';
/** The ways and the requests measured; a row's server label is `<way>: <request>`. */
export const WAYS = ['sandbox.fetch', 'sandbox.handle'] as const;
export const REQUESTS = { list: 'GET /v1/pets', get: 'GET /v1/pets/7', create: 'POST /v1/pets' } as const;

async function once(way: (typeof WAYS)[number], request: keyof typeof REQUESTS, durationSec: number): Promise<LoadResult> {
  const args = ['--import', TSX, SCRIPT, way === 'sandbox.fetch' ? 'fetch' : 'handle', request, String(durationSec), '50'];
  const { stdout } = await run(process.execPath, args, { cwd: PACKAGE_ROOT, timeout: (durationSec + 60) * 1000 });
  return JSON.parse(stdout.trim().split('\n').at(-1) as string) as LoadResult;
}

/** The median of each metric over rounds (counts summed). */
export function medianResult(rs: LoadResult[]): LoadResult {
  const pick = (f: (r: LoadResult) => number) => median(rs.map(f));
  return {
    rps: pick((r) => r.rps),
    p50: pick((r) => r.p50),
    p99: pick((r) => r.p99),
    requests: rs.reduce((n, r) => n + r.requests, 0),
    non2xx: rs.reduce((n, r) => n + r.non2xx, 0),
    errors: 0,
    cpuUs: pick((r) => r.cpuUs ?? Number.NaN),
  };
}

/** Every way and request, `rounds` times in turn; the median of each metric per row. */
export async function inProcessResults(opts: BenchOptions): Promise<Map<string, LoadResult>> {
  const runs = new Map<string, LoadResult[]>();
  for (let round = 0; round < opts.rounds; round++) {
    for (const way of WAYS) {
      for (const request of Object.keys(REQUESTS) as (keyof typeof REQUESTS)[]) {
        const label = `${way}: ${REQUESTS[request]}`;
        const result = await once(way, request, opts.durationSec);
        opts.log(`  ${label}: ${result.rps.toFixed(0)} req/s, ${result.cpuUs?.toFixed(1)} µs CPU per request`);
        runs.set(label, [...(runs.get(label) ?? []), result]);
      }
    }
  }
  return new Map([...runs].map(([label, rs]) => [label, medianResult(rs)]));
}
