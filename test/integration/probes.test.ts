/**
 * `/livez` and `/readyz` over real HTTP: no credential, answers valid
 * against spec/sandbox-control.yaml, 503 while the storage does not answer
 * or the sandbox drains, and the SIGTERM sequence of a rolling update on
 * the real CLI: readiness fails first, requests still finish, then exit.
 */
import { renameSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientOf } from '../support/control-client.js';
import { KEY, TEST_STORE, onMemory, onPostgres, startTestSandbox, tempDir, type TestSandbox } from '../support/harness.js';
import { killSandbox, spawnSandbox } from '../support/spawn.js';
import { expectControlValid } from '../support/spec-check.js';

/** GET of a root path, checked against the control spec. */
async function probe(origin: string, path: '/livez' | '/readyz'): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${origin}${path}`);
  const text = await res.text();
  await expectControlValid('GET', path, { status: res.status, headers: res.headers, text });
  return { status: res.status, body: JSON.parse(text) as unknown };
}

describe('probes of a running sandbox', () => {
  let sb: TestSandbox;
  beforeAll(async () => {
    sb = await startTestSandbox(['--admin-token', 'probe-admin']);
  });
  afterAll(() => sb.stop());

  it('/livez and /readyz answer without any credential', async () => {
    expect(await probe(sb.origin, '/livez')).toEqual({ status: 200, body: { status: 'ok' } });
    expect(await probe(sb.origin, '/readyz')).toEqual({ status: 200, body: { status: 'ready', store: sb.backend.kind } });
    expect(sb.backend.kind).toBe(TEST_STORE);
  });

  it('only GET (and HEAD) are probes; other methods and paths are 404 as before', async () => {
    expect((await fetch(`${sb.origin}/readyz`, { method: 'HEAD' })).status).toBe(200);
    expect((await fetch(`${sb.origin}/livez`, { method: 'POST' })).status).toBe(404);
    expect((await fetch(`${sb.origin}/livezz`)).status).toBe(404);
  });

  it('the typed client reaches them at the root', async () => {
    await expect(clientOf(sb).call('getReadiness')).resolves.toEqual({ status: 'ready', store: sb.backend.kind });
  });

  // The file backend's storage is the data file; on PostgreSQL (`npm run test:postgres`) it is the database, which this test cannot take away.
  // About the data file: PostgreSQL and memory have none.
  it.skipIf(onPostgres || onMemory)('/readyz is 503 while the data file cannot be reached, and ready again when it can', async () => {
    const aside = `${sb.config.dataFile}.aside`;
    renameSync(sb.config.dataFile, aside);
    try {
      const down = await probe(sb.origin, '/readyz');
      expect(down).toMatchObject({ status: 503, body: { code: 'service_unavailable', status: 503 } });
      expect((down.body as { message: string }).message).toContain('storage does not answer');
      expect((await probe(sb.origin, '/livez')).status).toBe(200);
    } finally {
      renameSync(aside, sb.config.dataFile);
    }
    expect((await probe(sb.origin, '/readyz')).status).toBe(200);
  });
});

describe('draining', () => {
  it('after drain(), /readyz is 503 while /v1 and /livez are still served', async () => {
    const sb = await startTestSandbox();
    try {
      sb.drain();
      expect(await probe(sb.origin, '/readyz')).toEqual({
        status: 503,
        body: { code: 'service_unavailable', message: 'The sandbox is shutting down.', status: 503 },
      });
      expect((await probe(sb.origin, '/livez')).status).toBe(200);
      expect((await sb.op('listPets', '/pets')).status).toBe(200);
    } finally {
      await sb.stop();
    }
  });

  it('on SIGTERM the CLI turns /readyz 503 first, finishes a request in flight, then exits 0', { timeout: 120_000 }, async () => {
    const dir = tempDir();
    const sandbox = await spawnSandbox(join(dir, 'db.json'), ['--shutdown-delay', '2']);
    try {
      // A request that takes longer than the shutdown delay: still in flight when the listener closes.
      await clientOf({ origin: sandbox.origin, config: { adminToken: 'sandbox-admin' } }).call('addFault', {
        body: { operationId: 'listPets', latencyMs: 3000 },
      });
      const inFlight = fetch(`${sandbox.baseUrl}/pets`, { headers: { authorization: `Bearer ${KEY}` } });
      await new Promise((resolve) => setTimeout(resolve, 300));
      sandbox.child.kill('SIGTERM');
      let readiness = 200;
      while (readiness === 200) readiness = (await probe(sandbox.origin, '/readyz')).status;
      expect(readiness).toBe(503);
      expect((await inFlight).status).toBe(200);
      expect(await sandbox.ended).toEqual({ code: 0, signal: null });
      expect(sandbox.output()).toContain('SIGTERM: /readyz answers 503');
    } finally {
      await killSandbox(sandbox);
    }
  });
});
