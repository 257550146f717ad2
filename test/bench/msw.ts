/**
 * The MSW row: MSW's `setupServer` answering GET /v1/pets through the
 * global `fetch` in process, by the sandbox's handlers
 * (petstore-sandbox/msw) and by MSW's plain `http.get` returning a fixed
 * array, each load in a process of its own (msw-load.ts). Rounds
 * alternate which goes first; the ratio is taken within each round (both
 * ran on the same machine moments apart) and its median kept.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { PACKAGE_ROOT } from '../../src/config/paths.js';
import { median, type LoadResult } from './load.js';
import { medianResult } from './in-process.js';
import type { BenchOptions } from './scenarios.js';

const run = promisify(execFile);
const SCRIPT = join(PACKAGE_ROOT, 'test', 'bench', 'msw-load.ts');
const TSX = join(PACKAGE_ROOT, 'node_modules', 'tsx', 'dist', 'esm', 'index.mjs');

/** The scenario's name, as rows and targets name it. */
export const MSW = 'MSW setupServer, GET /v1/pets through the global fetch, 50 in flight';
/** The two ways, as the rows' server labels name them. */
export const MSW_WAYS = { sandbox: 'sandbox handlers (memory store, 50 pets)', fixed: "MSW's http.get returning a fixed array (the same 50 pets)" } as const;
/** The least the sandbox's handlers keep of the fixed array's req/s: they validate, store and journal each request. */
export const MSW_MIN_RATIO = 0.5;

async function once(way: keyof typeof MSW_WAYS, durationSec: number): Promise<LoadResult> {
  const args = ['--import', TSX, SCRIPT, way, String(durationSec), '50'];
  const { stdout } = await run(process.execPath, args, { cwd: PACKAGE_ROOT, timeout: (durationSec + 60) * 1000 });
  return JSON.parse(stdout.trim().split('\n').at(-1) as string) as LoadResult;
}

/** Both ways `rounds` times, alternating which goes first; the median of each metric per row, and of the per-round ratio. */
export async function mswResults(opts: BenchOptions): Promise<{ results: Map<string, LoadResult>; ratio: number }> {
  const runs: Record<keyof typeof MSW_WAYS, LoadResult[]> = { sandbox: [], fixed: [] };
  const ratios: number[] = [];
  for (let round = 0; round < opts.rounds; round++) {
    const order: (keyof typeof MSW_WAYS)[] = round % 2 === 0 ? ['sandbox', 'fixed'] : ['fixed', 'sandbox'];
    for (const way of order) {
      const result = await once(way, opts.durationSec);
      opts.log(`  ${MSW_WAYS[way]}: ${result.rps.toFixed(0)} req/s, ${result.cpuUs?.toFixed(1)} µs CPU per request`);
      runs[way].push(result);
    }
    ratios.push((runs.sandbox.at(-1) as LoadResult).rps / (runs.fixed.at(-1) as LoadResult).rps);
  }
  const results = new Map([
    [MSW_WAYS.sandbox, medianResult(runs.sandbox)],
    [MSW_WAYS.fixed, medianResult(runs.fixed)],
  ]);
  return { results, ratio: median(ratios) };
}
