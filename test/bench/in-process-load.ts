/**
 * One in-process load, run in a process of its own (so that its CPU time is
 * the sandbox's alone): a library sandbox on the memory store, `concurrency`
 * requests in flight through `sandbox.fetch` (Request and Response objects)
 * or `sandbox.handle` (the engine's plain values), for `durationSec` after a
 * second of warm-up. Prints one LoadResult as JSON.
 *
 *   tsx test/bench/in-process-load.ts <fetch|handle> <list|get|create> <durationSec> <concurrency>
 */
import { createSandbox } from '../../src/index.js';
import type { EngineRequest } from '../../src/index.js';
import type { LoadResult } from './load.js';

const [way = 'fetch', scenario = 'list', duration = '5', concurrency = '50'] = process.argv.slice(2);
const NEW_PET = JSON.stringify({ name: 'Bench', categoryId: 1, status: 'available' });
const AUTH = { authorization: 'Bearer sandbox-key' };
const sandbox = await createSandbox({ count: 50 });

const plain: Record<string, () => EngineRequest> = {
  list: () => ({ method: 'GET', url: '/v1/pets', headers: { ...AUTH } }),
  get: () => ({ method: 'GET', url: '/v1/pets/7', headers: { ...AUTH } }),
  create: () => ({ method: 'POST', url: '/v1/pets', headers: { ...AUTH, 'content-type': 'application/json' }, body: new TextEncoder().encode(NEW_PET) }),
};
const viaFetch: Record<string, () => Promise<Response>> = {
  list: () => sandbox.fetch('/v1/pets', { headers: AUTH }),
  get: () => sandbox.fetch('/v1/pets/7', { headers: AUTH }),
  create: () => sandbox.fetch('/v1/pets', { method: 'POST', headers: { ...AUTH, 'content-type': 'application/json' }, body: NEW_PET }),
};

/** One request, its whole body read; its status. */
async function once(): Promise<number> {
  if (way === 'handle') {
    const response = await sandbox.handle((plain[scenario] as () => EngineRequest)());
    return response?.status ?? 0;
  }
  const response = await (viaFetch[scenario] as () => Promise<Response>)();
  await response.arrayBuffer();
  return response.status;
}

/** `concurrency` loops of requests until `until`; the latencies (ms) and how many were not 2xx. */
async function load(until: number): Promise<{ latencies: number[]; non2xx: number }> {
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
  await Promise.all(Array.from({ length: Number(concurrency) }, loop));
  return { latencies, non2xx };
}

await load(performance.now() + 1000);
const cpuBefore = process.cpuUsage();
const started = performance.now();
const { latencies, non2xx } = await load(started + Number(duration) * 1000);
const elapsed = (performance.now() - started) / 1000;
const cpu = process.cpuUsage(cpuBefore);
latencies.sort((a, b) => a - b);
const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? Number.NaN;
const result: LoadResult = {
  rps: latencies.length / elapsed,
  p50: at(0.5),
  p99: at(0.99),
  requests: latencies.length,
  non2xx,
  errors: 0,
  cpuUs: (cpu.user + cpu.system) / latencies.length,
};
await sandbox.close();
process.stdout.write(`${JSON.stringify(result)}\n`);
