/**
 * The bench's scenarios. Every scenario runs the same load on each server
 * in rounds, rotating the order each round, so a slow spell of the machine
 * does not fall on one server only; each metric is the median over rounds.
 */
import { cpSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { combine, median, runLoad, type LoadResult, type LoadSpec } from './load.js';
import { startSandbox, type ServerProcess } from './processes.js';

export interface BenchOptions {
  durationSec: number;
  rounds: number;
  /** Starts per ready-time measurement. */
  starts: number;
  warmup: boolean;
  log: (line: string) => void;
}

export const NEW_PET = JSON.stringify({ name: 'Bench', categoryId: 1, status: 'available' });

/** A contender in a scenario: a running server, or one started fresh for each round. */
export interface Contender {
  label: string;
  server?: ServerProcess;
  /** Starts a server for one round (e.g. a copy of a prepared store); it is stopped after the round. */
  fresh?: () => Promise<ServerProcess>;
  /** Called with the round's server and result after its load, before it is stopped (memory probes). */
  after?: (server: ServerProcess, result: LoadResult) => void;
  /** Seconds of unmeasured load before the rounds, when the bench warms up: 3 unless said (a JVM's JIT compiler needs longer). */
  warmupSec?: number;
  /** Its own load instead of autocannon's on the scenario's path (e.g. the cross-instance chain); the same for every contender of a scenario. */
  load?: (server: ServerProcess, durationSec: number) => Promise<LoadResult>;
}

/** Server CPU per request, µs, from CPU times (ms) read before and after a load. */
const perRequest = (before: number | undefined, after: number | undefined, requests: number) =>
  before !== undefined && after !== undefined && requests > 0 ? ((after - before) * 1000) / requests : undefined;

function rotate<T>(items: T[], by: number): T[] {
  const k = by % items.length;
  return [...items.slice(k), ...items.slice(0, k)];
}

/** Runs `load` (path after the base, connections, body) against each contender, alternating, for `rounds` rounds. */
export async function compare(
  opts: BenchOptions,
  contenders: Contender[],
  load: Omit<LoadSpec, 'url' | 'durationSec'> & { path: string },
): Promise<Map<string, LoadResult>> {
  const rounds = new Map<string, LoadResult[]>(contenders.map((c) => [c.label, []]));
  const spec = (server: ServerProcess, durationSec: number): LoadSpec => ({ ...load, url: `${server.base}${load.path}`, durationSec });
  const run = (c: Contender, server: ServerProcess, durationSec: number) => (c.load ? c.load(server, durationSec) : runLoad(spec(server, durationSec)));
  // JIT warm-up, unmeasured: servers that run through the scenario get longer (Prism keeps getting faster for seconds).
  if (opts.warmup) {
    for (const c of contenders) if (c.server) await run(c, c.server, c.warmupSec ?? 3);
  }
  for (let round = 0; round < opts.rounds; round++) {
    for (const c of rotate(contenders, round)) {
      const server = c.server ?? (await c.fresh?.());
      if (!server) throw new Error(`${c.label}: no server`);
      try {
        if (!c.server && opts.warmup) await run(c, server, 1);
        const [cpuBefore, dbBefore] = [server.cpuMs(), server.dbCpuMs?.()];
        const result = await run(c, server, opts.durationSec);
        const cpuUs = perRequest(cpuBefore, server.cpuMs(), result.requests);
        const dbCpuUs = perRequest(dbBefore, server.dbCpuMs?.(), result.requests);
        if (cpuUs !== undefined) result.cpuUs = cpuUs;
        if (dbCpuUs !== undefined) result.dbCpuUs = dbCpuUs;
        const cpu = `${cpuUs === undefined ? '' : `  cpu ${cpuUs.toFixed(0)} µs/req`}${dbCpuUs === undefined ? '' : `  PostgreSQL cpu ${dbCpuUs.toFixed(0)} µs/req`}`;
        opts.log(`  round ${round + 1} ${c.label.padEnd(30)} ${result.rps.toFixed(0).padStart(6)} req/s  p50 ${result.p50} ms  p99 ${result.p99} ms${cpu}`);
        rounds.get(c.label)?.push(result);
        c.after?.(server, result);
      } finally {
        if (!c.server) await server.stop();
      }
    }
  }
  return new Map([...rounds].map(([label, results]) => [label, combine(results)]));
}

/** A contender that starts the sandbox on a fresh copy of `template` (a folder holding db.json) each round. */
export function freshCopy(label: string, template: string, work: string, after?: Contender['after'], bin?: string): Contender {
  let n = 0;
  return {
    label,
    ...(after ? { after } : {}),
    fresh: async () => {
      const dir = join(work, `${label.replace(/\W+/g, '-')}-${(n += 1)}`);
      rmSync(dir, { recursive: true, force: true });
      mkdirSync(dir, { recursive: true });
      cpSync(template, dir, { recursive: true });
      const server = await startSandbox(join(dir, 'db.json'), 0, label, bin);
      const stop = server.stop;
      return { ...server, stop: async () => (await stop(), rmSync(dir, { recursive: true, force: true })) };
    },
  };
}

/** Median start-to-first-200 over `opts.starts` starts of the sandbox on an existing store; also its peak RSS. */
export async function readyTime(opts: BenchOptions, dataFile: string): Promise<{ ms: number; all: number[]; peakRssMb: number }> {
  const all: number[] = [];
  let peakRssMb = 0;
  for (let i = 0; i < opts.starts; i++) {
    const server = await startSandbox(dataFile, 0, 'ready');
    all.push(server.readyMs);
    peakRssMb = Math.max(peakRssMb, server.peakRssMb() ?? 0);
    await server.stop();
  }
  return { ms: median(all), all, peakRssMb };
}
