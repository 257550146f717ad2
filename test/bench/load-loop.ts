/**
 * The load loop of the in-process rows (in-process-load.ts, msw-load.ts):
 * `concurrency` loops of one request each, a second of warm-up, then
 * `durationSec` measured, with the process's CPU time per request (each
 * load runs in a process of its own, so that time is the measured way's).
 */
import type { LoadResult } from './load.js';

/** `concurrency` loops of requests until `until`; the latencies (ms) and how many were not 2xx. */
async function load(once: () => Promise<number>, until: number, concurrency: number): Promise<{ latencies: number[]; non2xx: number }> {
  const latencies: number[] = [];
  let non2xx = 0;
  const loop = async () => {
    while (performance.now() < until) {
      const start = performance.now();
      const status = await once();
      latencies.push(performance.now() - start);
      if (status < 200 || status > 299) non2xx++;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, loop));
  return { latencies, non2xx };
}

/** `once` (one request, its whole body read; resolves with its status) under load, measured after a second of warm-up. */
export async function measureLoad(once: () => Promise<number>, durationSec: number, concurrency: number): Promise<LoadResult> {
  await load(once, performance.now() + 1000, concurrency);
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const { latencies, non2xx } = await load(once, started + durationSec * 1000, concurrency);
  const elapsed = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? Number.NaN;
  return {
    rps: latencies.length / elapsed,
    p50: at(0.5),
    p99: at(0.99),
    requests: latencies.length,
    non2xx,
    errors: 0,
    cpuUs: (cpu.user + cpu.system) / latencies.length,
  };
}
