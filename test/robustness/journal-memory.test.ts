/**
 * A hostile client cannot exhaust the sandbox's memory through its journal:
 * with --open-keys every new bearer token opens a journal, and each rejected
 * request of ~4 KiB is journaled. Before the journal had a byte budget, such
 * a stream ran the process out of memory; here it runs in a real child
 * process under a small heap, which must survive, answer normally, and hold
 * its journals within --journal-memory.
 */
import { rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createControlClient } from '../../src/control/client.js';
import { tempDir } from '../support/harness.js';
import { spawnSandbox, stopSandbox, type ChildSandbox } from '../support/spawn.js';

const HEAP_MB = 64;
const BUDGET = 4 * 1024 * 1024;
/** Without the budget, this many entries need several times the heap. */
const REQUESTS = 24_000;
const PARALLEL = 8;
const ADMIN_TOKEN = 'sandbox-admin';

/** A body of ~4 KiB that validation rejects (categoryId is not an integer), so no workspace is opened. */
const REJECTED = JSON.stringify({ name: 'x'.repeat(4000), categoryId: 'not a number' });

let dir: string;
let sandbox: ChildSandbox;
beforeAll(async () => {
  dir = tempDir('petstore-journal-memory-');
  sandbox = await spawnSandbox(join(dir, 'db.json'), ['--open-keys', '--count', '0', '--journal-memory', String(BUDGET)], {
    nodeOptions: [`--max-old-space-size=${HEAP_MB}`],
  });
}, 90_000);
afterAll(async () => {
  await stopSandbox(sandbox);
  rmSync(dir, { recursive: true, force: true });
});

/** POSTs the rejected body with the key `load-<i>` over a kept-alive connection; resolves with the status (0 if the connection failed). */
function postRejected(agent: Agent, i: number): Promise<number> {
  const { hostname, port } = new URL(sandbox.origin);
  return new Promise((resolve) => {
    const req = request(
      {
        host: hostname,
        port,
        path: '/v1/pets',
        method: 'POST',
        agent,
        headers: { authorization: `Bearer load-${i}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(REJECTED) },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', () => resolve(0));
      },
    );
    req.on('error', () => resolve(0));
    req.end(REJECTED);
  });
}

describe(`the journal under ${REQUESTS} rejected 4 KiB requests with distinct keys, in a ${HEAP_MB} MiB heap`, () => {
  it('keeps the process alive and answering, and its journals within --journal-memory', { timeout: 180_000 }, async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: PARALLEL });
    const statuses = new Map<number, number>();
    let next = 0;
    await Promise.all(
      Array.from({ length: PARALLEL }, async () => {
        while (next < REQUESTS) {
          const status = await postRejected(agent, next++);
          statuses.set(status, (statuses.get(status) ?? 0) + 1);
        }
      }),
    );
    agent.destroy();
    expect(Object.fromEntries(statuses), sandbox.output().slice(-2000)).toEqual({ 400: REQUESTS });
    expect([sandbox.child.exitCode, sandbox.child.signalCode]).toEqual([null, null]);

    const control = createControlClient({ origin: sandbox.origin, adminToken: ADMIN_TOKEN });
    const { memory } = await control.call('readJournal', { query: { limit: 0 } });
    expect(memory.budget).toBe(BUDGET);
    expect(memory.bytes).toBeLessThanOrEqual(BUDGET);
    expect(memory.kept + memory.evicted).toBe(REQUESTS);
    expect(memory.kept).toBeGreaterThan(100);
    // The newest request is kept whole; the oldest went, and its journal with it.
    const newest = await control.call('readJournal', {}, { key: `load-${REQUESTS - 1}` });
    expect(newest.entries).toHaveLength(1);
    expect(newest.entries[0]).toMatchObject({ status: 400, requestBody: JSON.parse(REJECTED), specValid: true });
    expect((await control.call('readJournal', {}, { key: 'load-0' })).entries).toEqual([]);

    // Still a working sandbox.
    expect(await control.call('getHealth')).toMatchObject({ status: 'ok' });
    const auth = { authorization: 'Bearer sandbox-key', 'content-type': 'application/json' };
    const created = await fetch(`${sandbox.origin}/v1/pets`, { method: 'POST', headers: auth, body: JSON.stringify({ name: 'Survivor', categoryId: 1 }) });
    expect(created.status).toBe(201);
    const pet = (await created.json()) as { id: number };
    expect(await (await fetch(`${sandbox.origin}/v1/pets/${pet.id}`, { headers: auth })).json()).toEqual({ id: pet.id, name: 'Survivor', categoryId: 1 });
    await stopSandbox(sandbox);
    expect(sandbox.child.exitCode).toBe(0);
  });
});
