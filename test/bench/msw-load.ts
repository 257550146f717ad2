/**
 * One MSW load, run in a process of its own (so that its CPU time is the
 * way's alone): MSW's `setupServer` in this process, `concurrency` GET
 * /v1/pets in flight through the global `fetch` for `durationSec` after a
 * second of warm-up, answered by the sandbox's handlers (`sandbox`,
 * petstore-sandbox/msw on the memory store) or by MSW's plain `http.get`
 * returning a fixed array (`fixed`: the sandbox's own first page, so both
 * send the same pets). Prints one LoadResult as JSON.
 *
 *   tsx test/bench/msw-load.ts <sandbox|fixed> <durationSec> <concurrency>
 */
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { sandboxHandlers } from '../../src/msw.js';
import { measureLoad } from './load-loop.js';

const [way = 'sandbox', duration = '5', concurrency = '50'] = process.argv.slice(2);
const ORIGIN = 'https://api.example.test';
const AUTH = { authorization: 'Bearer sandbox-key' };
const sandbox = sandboxHandlers({ count: 50, origin: ORIGIN });
const pets = (await (await sandbox.fetch('/v1/pets', { headers: AUTH })).json()) as object[];
const handlers = way === 'sandbox' ? sandbox.handlers : [http.get(`${ORIGIN}/v1/pets`, () => HttpResponse.json(pets))];
const server = setupServer(...handlers);
server.listen({ onUnhandledFrame: 'error' });

/** One request, its whole body read; its status. */
async function once(): Promise<number> {
  const response = await fetch(`${ORIGIN}/v1/pets`, { headers: AUTH });
  await response.arrayBuffer();
  return response.status;
}

const result = await measureLoad(once, Number(duration), Number(concurrency));
server.close();
await sandbox.close();
process.stdout.write(`${JSON.stringify(result)}\n`);
