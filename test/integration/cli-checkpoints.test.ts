/**
 * The QA commands `checkpoint` and `copy`: against a running sandbox
 * (through its control plane) and on the data file when none runs, with the
 * same results; a restore gives back the export of the save, byte for byte.
 */
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createControlClient } from '../../src/control/client.js';
import { tempDir } from '../support/harness.js';
import { runCli, spawnSandbox, stopSandbox, type ChildSandbox } from '../support/spawn.js';

const dir = tempDir('petstore-cli-checkpoints-');
const data = join(dir, 'db.json');
const KEYS = ['--api-keys', 'key-a,key-b'];
const cli = (...args: string[]) => runCli([...args, '--data', data, ...KEYS]);

describe('QA commands checkpoint and copy', { timeout: 180_000 }, () => {
  let server: ChildSandbox | undefined;
  afterAll(async () => {
    if (server) await stopSandbox(server);
  });

  it('save, list, restore, copy and delete through a running sandbox', async () => {
    server = await spawnSandbox(data, [...KEYS, '--count', '5']);
    const control = createControlClient({ origin: server.origin, adminToken: 'sandbox-admin' });
    const atSave = await control.text('exportWorkspace');

    const save = await cli('checkpoint', 'save', 'start');
    expect(save.stderr).toBe('');
    expect(save.code).toBe(0);
    expect(JSON.parse(save.stdout)).toMatchObject({ name: 'start', count: 5, nextId: 6 });
    const taken = await cli('checkpoint', 'save', 'start');
    expect(taken.code).toBe(1);
    expect(taken.stderr).toContain('409');
    // The command line's flag, not the control plane's body field.
    expect(taken.stderr).toContain('add --overwrite to replace it');
    expect(taken.stderr).not.toContain('"overwrite"');
    const unknownTarget = await cli('copy', '--to', 'key-zzz');
    expect([unknownTarget.code, unknownTarget.stderr]).toEqual([1, expect.stringContaining('--to is not one of the configured API keys')]);
    const unknownSource = await cli('copy', '--to', 'key-b', '--key', 'key-zzz');
    expect([unknownSource.code, unknownSource.stderr]).toEqual([1, expect.stringContaining('--key is not one of the configured API keys')]);

    const created = await fetch(`${server.baseUrl}/pets`, {
      method: 'POST',
      headers: { authorization: 'Bearer key-a', 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'After the save', categoryId: 2 }),
    });
    expect(created.status).toBe(201);
    expect(await control.text('exportWorkspace')).not.toBe(atSave);

    const list = await cli('checkpoint', 'list');
    expect(list.code).toBe(0);
    expect(JSON.parse(list.stdout).checkpoints).toMatchObject([{ name: 'start', count: 5 }]);

    expect((await cli('checkpoint', 'restore', 'start')).code).toBe(0);
    expect(await control.text('exportWorkspace')).toBe(atSave);

    const copy = await cli('copy', '--to', 'key-b', '--checkpoint', 'start');
    expect(copy.code).toBe(0);
    expect(copy.stdout).not.toContain('key-');
    expect(JSON.parse(copy.stdout)).toMatchObject({ count: 5, nextId: 6 });
    expect(await control.text('exportWorkspace', {}, { key: 'key-b' })).toBe(atSave);

    expect((await cli('checkpoint', 'delete', 'start')).code).toBe(0);
    const gone = await cli('checkpoint', 'restore', 'start');
    expect(gone.code).toBe(1);
    expect(gone.stderr).toContain("No checkpoint 'start'");
  });

  it('works on the data file when no sandbox runs', async () => {
    if (server) await stopSandbox(server);
    server = undefined;
    const exportNow = async (key = 'key-a') => (await cli('export', '--key', key)).stdout;
    const atSave = await exportNow();
    expect((await cli('checkpoint', 'save', 'offline')).code).toBe(0);
    expect((await cli('reset', '--empty')).code).toBe(0);
    expect(await exportNow()).not.toBe(atSave);
    const restore = await cli('checkpoint', 'restore', 'offline');
    expect(restore.stderr).toBe('');
    expect(restore.code).toBe(0);
    expect(await exportNow()).toBe(atSave);
    expect((await cli('reset', '--empty', '--key', 'key-b')).code).toBe(0);
    expect((await cli('copy', '--to', 'key-b')).code).toBe(0);
    expect(await exportNow('key-b')).toBe(atSave);
    expect(JSON.parse((await cli('checkpoint', 'list')).stdout).checkpoints.map((c: { name: string }) => c.name)).toEqual(['offline']);
    const unknown = await cli('copy', '--to', 'key-zzz');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).not.toContain('key-zzz');
    expect(unknown.stderr).toContain('--to is not one of the configured API keys');
    const unknownSource = await cli('copy', '--to', 'key-b', '--key', 'key-zzz');
    expect([unknownSource.code, unknownSource.stderr]).toEqual([1, expect.stringContaining('--key is not one of the configured API keys')]);
    expect((await cli('checkpoint', 'save', 'offline')).stderr).toContain('add --overwrite to replace it');
  });

  it('exits 2 on bad usage', async () => {
    for (const args of [['checkpoint'], ['checkpoint', 'save'], ['checkpoint', 'list', 'extra'], ['checkpoint', 'rename', 'a'], ['copy']]) {
      const res = await cli(...args);
      expect(res.code, args.join(' ')).toBe(2);
      expect(res.stderr).toMatch(/Usage: (checkpoint|copy)/);
      expect(res.stderr).toContain('Run petstore-sandbox --help for the options.');
      expect(res.stderr).not.toContain('Usage: petstore-sandbox');
    }
  });
});
