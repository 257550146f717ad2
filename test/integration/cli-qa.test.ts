import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, spawnSandbox, stopSandbox, type ChildSandbox } from '../support/spawn.js';
import { createControlClient } from '../../src/control/client.js';
import { KEY, tempDir } from '../support/harness.js';

const dir = tempDir('petstore-cli-');
const data = join(dir, 'db.json');
const fixture = JSON.parse(readFileSync(new URL('../../fixtures/every-status.json', import.meta.url), 'utf8')) as { pets: unknown[] };

describe('QA commands', { timeout: 120_000 }, () => {
  let server: ChildSandbox | undefined;
  afterAll(async () => {
    if (server) await stopSandbox(server);
  });

  it('load and export work on the data file when no sandbox runs', async () => {
    const load = await runCli(['load', 'every-status', '--data', data]);
    expect(load.stderr).toBe('');
    expect(load.code).toBe(0);
    expect(JSON.parse(load.stdout)).toMatchObject({ count: fixture.pets.length });
    const out = join(dir, 'offline.json');
    expect((await runCli(['export', out, '--data', data])).code).toBe(0);
    expect(JSON.parse(readFileSync(out, 'utf8')).pets).toEqual(fixture.pets);
    // The answer names the file it worked on; a clash names the command line's flag, not the control plane's body field.
    expect(JSON.parse(load.stdout)).toMatchObject({ file: data });
    const clash = await runCli(['load', 'every-status', '--append', '--data', data]);
    expect(clash.code).toBe(1);
    expect(clash.stderr).toContain('load without --append (it replaces the pets) or use other ids');
    expect(clash.stderr).not.toContain('"mode"');
  });

  it('a fresh sandbox goes to a loaded scenario, a journal and an exported snapshot with the CLI alone', async () => {
    server = await spawnSandbox(data);
    expect((await runCli(['reset', '--data', data])).code).toBe(0);
    const load = await runCli(['load', 'every-status', '--data', data]);
    expect(load.code).toBe(0);
    expect(JSON.parse(load.stdout)).toMatchObject({ count: fixture.pets.length });
    // Through the control plane too, the clash is worded for the command line.
    const clash = await runCli(['load', 'every-status', '--append', '--data', data]);
    expect([clash.code, clash.stderr]).toEqual([1, expect.stringContaining('load without --append (it replaces the pets) or use other ids')]);

    const sold = await fetch(`${server.baseUrl}/pets?status=sold`, { headers: { authorization: `Bearer ${KEY}` } });
    expect(await sold.json()).toEqual(fixture.pets.filter((p) => (p as { status?: string }).status === 'sold'));
    const created = await fetch(`${server.baseUrl}/pets`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Scenario', categoryId: 2 }),
    });
    expect(created.status).toBe(201);

    const journal = await runCli(['journal', '--limit', '2', '--data', data]);
    expect(journal.code).toBe(0);
    const entries = JSON.parse(journal.stdout).entries as { method: string; path: string; status: number; query: unknown; requestBody: unknown }[];
    expect(entries.map((e) => [e.method, e.path, e.status])).toEqual([
      ['GET', '/v1/pets', 200],
      ['POST', '/v1/pets', 201],
    ]);
    expect(entries[0]?.query).toEqual({ status: 'sold' });
    expect(entries[1]?.requestBody).toEqual({ name: 'Scenario', categoryId: 2 });

    // A request without a key is in the unauthenticated journal, not the workspace's.
    expect((await fetch(`${server.baseUrl}/pets?anonymous=1`)).status).toBe(401);
    const anonymous = await runCli(['journal', '--unauthenticated', '--data', data]);
    expect(anonymous.code).toBe(0);
    expect((JSON.parse(anonymous.stdout).entries as { query: unknown; status: number }[]).map((e) => [e.query, e.status])).toEqual([[{ anonymous: '1' }, 401]]);
    expect(JSON.parse((await runCli(['journal', '--limit', '1', '--data', data])).stdout).entries[0].status).toBe(201);

    const out = join(dir, 'snapshot.json');
    expect((await runCli(['export', out, '--data', data])).code).toBe(0);
    const viaHttp = await createControlClient({ origin: server.origin, adminToken: 'sandbox-admin' }).text('exportWorkspace');
    expect(readFileSync(out, 'utf8')).toBe(viaHttp);
    expect(JSON.parse(readFileSync(out, 'utf8')).pets).toHaveLength(fixture.pets.length + 1);
  });

  it('refuses a second sandbox on the same data file', async () => {
    const second = await runCli(['--port', '0', '--data', data]);
    expect(second.code).toBe(1);
    expect(second.stderr).toContain('already served by process');
  });

  it('exits 2 on bad usage and 1 on failure, with a clear message', async () => {
    const usage = await runCli(['load', '--data', data]);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('Usage: load');
    const missing = await runCli(['load', 'no-such-set', '--data', join(dir, 'other.json')]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("No fixture set 'no-such-set'");
    const journal = await runCli(['journal', '--data', join(dir, 'other.json')]);
    expect(journal.code).toBe(1);
    expect(journal.stderr).toContain('journal lives in a running sandbox');
  });
});
