/**
 * PostgreSQL itself failing (issue 12, item 5): while the database is out
 * of reach /v1 answers 503 `service_unavailable` and the process stays up;
 * once it is back the sandbox answers again by itself with nothing lost.
 * The control plane's checkpoint operations answer 503 the same way.
 * Start-up against a database out of reach, or with refused credentials,
 * stops with exit code 1 and a message naming the host, never the password.
 */
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, postgresUrl, startPostgres, type TestPostgres } from '../support/postgres.js';
import { startInstance, stopInstances, type Instance } from '../support/shared-sandboxes.js';
import { runCli } from '../support/spawn.js';

// A server of this file's own: the outage stops it, which no other file may see.
let server: TestPostgres;
let instance: Instance;

beforeAll(async () => {
  server = await startPostgres();
  instance = await startInstance(postgresUrl(server.port, await createDatabase(server.port, 'outage')), ['--count', '3']);
}, 180_000);
afterAll(async () => {
  await stopInstances(instance);
  await server?.stop();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the database out of reach, then back', () => {
  it('answers 503 service_unavailable while it is down, stays up, and serves everything again once it is back', async () => {
    const created = await instance.call('/v1/pets', { method: 'POST', json: { name: 'Before', categoryId: 4 } });
    expect(created.status).toBe(201);
    expect((await instance.ctl('POST', '/checkpoints', { json: { name: 'kept' } })).status).toBe(201);
    await server.pause();
    try {
      for (const [path, init] of [
        ['/v1/pets', {}],
        ['/v1/pets/1', {}],
        ['/v1/pets', { method: 'POST', json: { name: 'During', categoryId: 4 } }],
      ] as const) {
        const res = await instance.call(path, init);
        expect(res.status).toBe(503);
        expect(res.body).toMatchObject({ code: 'service_unavailable', status: 503 });
        // Not final: a balancer or a client knows to come back.
        expect(res.headers.get('retry-after')).toBe('1');
        expect(typeof (res.body as { message: unknown }).message).toBe('string');
      }
      // The checkpoints too: each operation reaches the database, and none is a 500.
      for (const [method, path, json] of [
        ['GET', '/checkpoints', undefined],
        ['POST', '/checkpoints', { name: 'during', overwrite: true }],
        ['POST', '/checkpoints/kept/restore', undefined],
        ['DELETE', '/checkpoints/kept', undefined],
      ] as const) {
        const res = await instance.ctl(method, path, json === undefined ? {} : { json });
        expect(res.status, `${method} ${path}`).toBe(503);
        expect(res.body).toMatchObject({ code: 'service_unavailable', status: 503 });
        expect(res.headers.get('retry-after'), `${method} ${path}`).toBe('1');
      }
      expect(instance.child.child.exitCode).toBeNull();
    } finally {
      await server.resume();
    }
    // Back by itself: no restart of the sandbox.
    let status = 0;
    for (let tries = 0; tries < 200 && status !== 200; tries++) {
      status = (await instance.call('/v1/pets?limit=100')).status;
      if (status !== 200) await sleep(100);
    }
    expect(status).toBe(200);
    const listed = (await instance.call('/v1/pets?limit=100')).body as { id: number; name: string }[];
    expect(listed.map((p) => p.name)).toContain('Before');
    expect(listed.map((p) => p.name)).not.toContain('During');
    expect((await instance.call('/v1/pets', { method: 'POST', json: { name: 'After', categoryId: 4 } })).status).toBe(201);
    // The checkpoint saved before is still there, and nothing was saved during.
    const checkpoints = (await instance.ctl('GET', '/checkpoints')).body as { checkpoints: { name: string }[] };
    expect(checkpoints.checkpoints.map((c) => c.name)).toEqual(['kept']);
  }, 120_000);
});

async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

describe('start-up', () => {
  it('against a database out of reach: exit code 1, the host named, the password never', async () => {
    const port = await closedPort();
    const result = await runCli(['--port', '0', '--store', `postgres://petstore:hunter2secret@127.0.0.1:${port}/pets`]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`127.0.0.1:${port}/pets`);
    expect(result.stdout + result.stderr).not.toContain('hunter2secret');
  }, 60_000);

  it('with a password the database refuses: exit code 1, the host named, the password never', async () => {
    const result = await runCli(['--port', '0', '--store', `postgres://postgres:wrong-hunter2@127.0.0.1:${server.port}/postgres`]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`127.0.0.1:${server.port}`);
    expect(result.stdout + result.stderr).not.toContain('wrong-hunter2');
  }, 60_000);
});
