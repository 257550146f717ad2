/**
 * A request timed into the removal of its open key's workspace: the removal
 * (the statements the sandbox's own removal runs) is held open in a
 * transaction of the test's while a create and a list of that key arrive,
 * then committed. The create waited on the workspace's row; it must then be
 * answered from a fresh, seeded workspace, as a new key would be: never a
 * 503 "missing from the database".
 */
import pg from 'pg';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REMOVE } from '../../src/store/postgres/open-key-removal.js';
import { freshStore, postgresForFile, startInstance, stopInstances, type Instance } from '../support/shared-sandboxes.js';

const OPEN_KEY = 'open-key-in-the-race';
const SEEDED = 20;

let server: Awaited<ReturnType<typeof postgresForFile>>;
let url: string;
let instance: Instance;

beforeAll(async () => {
  server = await postgresForFile();
  url = await freshStore(server.port);
  instance = await startInstance(url, ['--open-keys', '--count', String(SEEDED)]);
}, 180_000);

afterAll(async () => {
  await stopInstances(instance);
  await server?.stop();
});

/** Calls /v1 with the open key. */
async function call(path: string, init: { method?: string; json?: unknown } = {}) {
  const res = await fetch(`${instance.child.origin}/v1${path}`, {
    method: init.method ?? 'GET',
    headers: { authorization: `Bearer ${OPEN_KEY}`, ...(init.json ? { 'content-type': 'application/json' } : {}) },
    body: init.json ? JSON.stringify(init.json) : undefined,
  });
  return { status: res.status, body: (await res.json()) as unknown };
}

describe('a request timed into the removal of its open key workspace (PostgreSQL)', () => {
  it('waits for the removal, then is answered from a fresh seeded workspace', async () => {
    const first = await call('/pets', { method: 'POST', json: { name: 'Before the removal', categoryId: 1 } });
    expect(first).toMatchObject({ status: 201, body: { id: SEEDED + 1 } });
    const db = new pg.Client({ connectionString: url });
    await db.connect();
    try {
      const { rows } = await db.query<{ id: string }>('SELECT id FROM petstore_workspaces WHERE open_key');
      expect(rows).toHaveLength(1);
      const ids = [rows[0]?.id];
      await db.query('BEGIN');
      for (const statement of REMOVE) await db.query(statement, [ids]);
      // The removal holds the workspace's row: the create must wait for it, whatever the state read before it saw.
      const create = call('/pets', { method: 'POST', json: { name: 'During the removal', categoryId: 2 } });
      await sleep(500);
      await db.query('COMMIT');
      const created = await create;
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      // A fresh workspace: the seeded pets and this one, not the pet made before the removal.
      expect(created.body).toMatchObject({ id: SEEDED + 1, name: 'During the removal' });
      const listed = await call('/pets?limit=100');
      expect(listed.status).toBe(200);
      const names = (listed.body as { name: string }[]).map((p) => p.name);
      expect(names).toHaveLength(SEEDED + 1);
      expect(names).toContain('During the removal');
      expect(names).not.toContain('Before the removal');
    } finally {
      await db.query('ROLLBACK').catch(() => undefined);
      await db.end();
    }
  }, 60_000);
});
