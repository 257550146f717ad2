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
import { measureLoad } from './load-loop.js';

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

const result = await measureLoad(once, Number(duration), Number(concurrency));
await sandbox.close();
process.stdout.write(`${JSON.stringify(result)}\n`);
