/**
 * Clients that leave while their requests wait for PostgreSQL: for a
 * connection of the pool, for a lock another session holds, in the group
 * commit's queue. The CLI is spawned with a pool of two connections and
 * every table locked by another session, so each request waits; its client
 * leaves; the lock goes. Nothing the requests held stays: the sandbox
 * answers again with its two connections, and SIGTERM ends it cleanly.
 * With the lock never released, SIGTERM still ends it within the deadline.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { abandonFetch } from '../support/abandon.js';
import { KEY } from '../support/harness.js';
import { freshStore, postgresForFile, startInstance, stopInstances, type Instance } from '../support/shared-sandboxes.js';

const TABLES = 'petstore_state, petstore_workspaces, petstore_pets, petstore_journal, petstore_faults, petstore_checkpoints';
const ADMIN = { authorization: 'Bearer sandbox-admin', 'content-type': 'application/json' };
const AUTH = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };

/** Another session holding every table of the sandbox until `release`. */
async function lockEverything(url: string): Promise<{ release(): Promise<void> }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query('BEGIN');
  await client.query(`LOCK TABLE ${TABLES} IN ACCESS EXCLUSIVE MODE`);
  return {
    async release() {
      await client.query('COMMIT');
      await client.end();
    },
  };
}

/** Requests of every kind that touch the database, each dropped after `ms`. */
function dropEverything(origin: string, ms: number): Promise<unknown> {
  const control = (path: string, method = 'GET', body?: unknown) =>
    abandonFetch(`${origin}/__sandbox${path}`, ms, { method, headers: ADMIN, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  return Promise.all([
    ...Array.from({ length: 6 }, () => abandonFetch(`${origin}/v1/pets?limit=5`, ms, { headers: AUTH })),
    ...Array.from({ length: 6 }, (_, i) =>
      abandonFetch(`${origin}/v1/pets`, ms, { method: 'POST', headers: AUTH, body: JSON.stringify({ name: `p${i}`, categoryId: 1 }) }),
    ),
    ...Array.from({ length: 4 }, () => control('/journal/stream?limit=5')),
    control('/journal'),
    control('/export'),
    control('/reset', 'POST', { count: 20 }),
    control('/load', 'POST', { generate: { seed: 1, count: 20 } }),
    control('/checkpoints', 'POST', { name: 'left' }),
    control('/faults', 'POST', { operationId: 'listPets', latencyMs: 10 }),
  ]);
}

/** SIGTERM; how it ended and how long it took. */
async function terminate(instance: Instance): Promise<{ code: number | null; ms: number }> {
  const start = Date.now();
  instance.child.child.kill('SIGTERM');
  const timer = setTimeout(() => instance.child.child.kill('SIGKILL'), 40_000);
  const { code } = await instance.child.ended;
  clearTimeout(timer);
  return { code, ms: Date.now() - start };
}

describe('requests dropped while they wait for PostgreSQL', () => {
  let server: Awaited<ReturnType<typeof postgresForFile>>;
  beforeAll(async () => {
    server = await postgresForFile();
  }, 180_000);
  afterAll(() => server?.stop());

  it('once the lock goes, the pool is whole again and SIGTERM ends it cleanly', { timeout: 120_000 }, async () => {
    const url = await freshStore(server.port);
    const instance = await startInstance(url, ['--api-keys', KEY, '--pg-pool-size', '2']);
    try {
      expect((await instance.call('/v1/pets?limit=1')).status).toBe(200);
      const lock = await lockEverything(url);
      await dropEverything(instance.child.origin, 300);
      await lock.release();
      // Two connections serve every request: one kept by a dropped request would show here as a wait.
      for (let i = 0; i < 5; i++) expect((await instance.call('/v1/pets?limit=1')).status).toBe(200);
      const ended = await terminate(instance);
      expect(ended.code, instance.child.output()).toBe(0);
      expect(ended.ms).toBeLessThan(8_000);
      expect(instance.child.output()).not.toContain('still held');
    } finally {
      await stopInstances(instance);
    }
  });

  it('with the database never answering, SIGTERM still ends it by the deadline, saying what held it', { timeout: 120_000 }, async () => {
    const url = await freshStore(server.port);
    const instance = await startInstance(url, ['--api-keys', KEY, '--pg-pool-size', '2']);
    expect((await instance.call('/v1/pets?limit=1')).status).toBe(200);
    const lock = await lockEverything(url);
    try {
      await dropEverything(instance.child.origin, 300);
      const ended = await terminate(instance);
      // 2 s for connections, 8 s for the stores, then the process ends whatever holds it.
      expect(ended.ms).toBeLessThan(20_000);
      expect(ended.code).toBe(1);
      expect(instance.child.output()).toContain('still held');
    } finally {
      await lock.release();
      await stopInstances(instance);
    }
  });
});
