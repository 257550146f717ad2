/**
 * `--store memory`, through the real CLI: the sandbox serves and keeps state
 * for its process while writing nothing to disk (its data folder is never
 * created), says which store it runs on, and the QA commands that would
 * open a store themselves refuse it in one line.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../support/harness.js';
import { killSandbox, runCli, spawnSandbox, stopSandbox, type ChildSandbox } from '../support/spawn.js';

const KEY = 'memory-key';
const ADMIN = 'memory-admin-token';

describe('--store memory', { timeout: 120_000 }, () => {
  let dir: string;
  let dataFile: string;
  let sb: ChildSandbox;
  beforeAll(async () => {
    dir = tempDir('petstore-memory-');
    // A data folder that does not exist: any file the sandbox wrote would need it made.
    dataFile = join(dir, 'absent', 'db.json');
    sb = await spawnSandbox(dataFile, ['--store', 'memory', '--api-keys', KEY, '--admin-token', ADMIN, '--log-level', 'info']);
  });
  afterAll(() => killSandbox(sb));

  const call = (path: string, init: RequestInit = {}) =>
    fetch(`${sb.origin}${path}`, { ...init, headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json', ...init.headers } });
  const control = (path: string, init: RequestInit = {}) => call(`/__sandbox${path}`, { ...init, headers: { authorization: `Bearer ${ADMIN}` } });

  it('says at start-up and on /readyz that the store is memory', async () => {
    expect(sb.stdout()).toMatch(/store: +memory \(this process only: nothing is written to disk/);
    expect(sb.stdout()).not.toContain('data file:');
    expect(await (await fetch(`${sb.origin}/readyz`)).json()).toEqual({ status: 'ready', store: 'memory' });
  });

  it('keeps creates, resets, loads and checkpoints for the process, and writes nothing to disk', async () => {
    const reset = await control('/reset', { method: 'POST', body: JSON.stringify({ empty: true }) });
    expect(reset.status).toBe(200);
    const created = await call('/v1/pets', { method: 'POST', body: JSON.stringify({ name: 'Kept', categoryId: 2 }) });
    expect([created.status, await created.json()]).toEqual([201, { id: 1, name: 'Kept', categoryId: 2 }]);
    expect((await control('/checkpoints', { method: 'POST', body: JSON.stringify({ name: 'one' }) })).status).toBe(201);
    expect((await control('/reset', { method: 'POST', body: JSON.stringify({ empty: true }) })).status).toBe(200);
    expect((await control('/checkpoints/one/restore', { method: 'POST' })).status).toBe(200);
    expect(await (await call('/v1/pets/1')).json()).toEqual({ id: 1, name: 'Kept', categoryId: 2 });
    expect(await (await control('/export')).text()).toBe('{"nextId":2,"pets":[{"id":1,"name":"Kept","categoryId":2}]}');
    expect(existsSync(join(dir, 'absent'))).toBe(false);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('QA commands work on it through --url, and refuse it without, in one line', async () => {
    const remote = await runCli(['export', '--store', 'memory', '--url', sb.origin, '--admin-token', ADMIN]);
    expect([remote.code, remote.stdout.trim()]).toEqual([0, '{"nextId":2,"pets":[{"id":1,"name":"Kept","categoryId":2}]}']);
    for (const command of [['reset'], ['export'], ['checkpoint', 'list']]) {
      const refused = await runCli([...command, '--store', 'memory', '--data', dataFile]);
      expect(refused.code, refused.stderr).toBe(1);
      expect(refused.stderr.trim().split('\n')).toEqual([expect.stringContaining('--store memory keeps nothing outside a running sandbox')]);
    }
    expect(readdirSync(dir)).toEqual([]);
  });

  it('stops cleanly, still having written nothing', async () => {
    expect(await stopSandbox(sb)).toEqual({ code: 0, signal: null });
    expect(readdirSync(dir)).toEqual([]);
  });
});
