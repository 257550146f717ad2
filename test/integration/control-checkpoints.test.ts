/**
 * Named checkpoints over real HTTP: a restore gives back the export of the
 * moment it was saved, byte for byte (next id included); checkpoints are
 * per workspace, bounded, and survive a restart; a copy puts one
 * workspace's data into another's; a refused restore changes nothing.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { controlOf, type Control } from '../support/control-client.js';
import { onMemory, onPostgres, startTestSandbox, tempDir, type TestSandbox } from '../support/harness.js';

const KEYS = ['--api-keys', 'key-a,key-b'];
const JSON_TYPE = { 'content-type': 'application/json' };

const running: TestSandbox[] = [];
afterEach(async () => {
  for (const sb of running.splice(0)) await sb.stop({ keepData: true });
});

async function start(args: string[] = [], dir = tempDir()): Promise<{ sb: TestSandbox; ctl: Control }> {
  const sb = await startTestSandbox([...KEYS, ...args], dir);
  running.push(sb);
  return { sb, ctl: controlOf(sb) };
}

const exportText = async (ctl: Control, key = 'key-a') => {
  const res = await ctl('GET', '/export', { key });
  expect(res.status).toBe(200);
  return res.text;
};

const create = async (sb: TestSandbox, key: string, name: string) => {
  const res = await sb.op('createPet', '/pets', { key, method: 'POST', json: { name, categoryId: 3, status: 'pending' } });
  expect(res.status).toBe(201);
};

describe('save and restore', () => {
  it('restores the export of the moment it was saved, byte for byte, next id included', async () => {
    const { sb, ctl } = await start();
    await ctl('POST', '/reset', { key: 'key-a', json: { seed: 4, count: 12 } });
    await create(sb, 'key-a', 'Zoë 🐕 "quoted", with a comma');
    const atSave = await exportText(ctl);
    const saved = await ctl('POST', '/checkpoints', { key: 'key-a', json: { name: 'before-test' } });
    expect(saved.status).toBe(201);
    expect(saved.body).toMatchObject({ name: 'before-test', count: 13, nextId: 14 });

    await create(sb, 'key-a', 'Later');
    await create(sb, 'key-a', 'Later still');
    await ctl('POST', '/load', { key: 'key-a', json: { nextId: 900, pets: [{ id: 5, name: 'Other', categoryId: 1 }] } });
    expect(await exportText(ctl)).not.toBe(atSave);

    const restored = await ctl('POST', '/checkpoints/before-test/restore', { key: 'key-a' });
    expect(restored.status).toBe(200);
    expect(restored.body).toMatchObject({ count: 13, nextId: 14 });
    expect(await exportText(ctl)).toBe(atSave);
    // The next id came back too: the next create gets 14, not 900 or 16.
    expect((await sb.op('createPet', '/pets', { key: 'key-a', method: 'POST', json: { name: 'After', categoryId: 1 } })).body.id).toBe(14);
    // Restoring again gives the same data: the checkpoint stays.
    await ctl('POST', '/checkpoints/before-test/restore', { key: 'key-a' });
    expect(await exportText(ctl)).toBe(atSave);
  });

  it('restores and copies int64 categoryIds digit for digit', async () => {
    const { sb, ctl } = await start();
    await ctl('POST', '/reset', { key: 'key-a', json: { empty: true } });
    for (const categoryId of ['9223372036854775807', '-9223372036854775808']) {
      const res = await sb.call('/pets', { key: 'key-a', method: 'POST', headers: JSON_TYPE, body: `{"name":"Wide","categoryId":${categoryId}}` });
      expect(res.status).toBe(201);
    }
    const atSave = await exportText(ctl);
    expect(atSave).toContain('"categoryId":9223372036854775807');
    expect((await ctl('POST', '/checkpoints', { key: 'key-a', json: { name: 'wide' } })).status).toBe(201);
    await ctl('POST', '/reset', { key: 'key-a', json: { empty: true } });
    const restored = await ctl('POST', '/checkpoints/wide/restore', { key: 'key-a' });
    expect(restored.status, restored.text).toBe(200);
    expect(await exportText(ctl)).toBe(atSave);
    const copied = await ctl('POST', '/copy', { key: 'key-a', headers: { 'x-sandbox-target-key': 'key-b' } });
    expect(copied.status, copied.text).toBe(200);
    expect(await exportText(ctl, 'key-b')).toBe(atSave);
  });

  it('keeps a next id above every pet (ids deleted by a load are not reused after a restore)', async () => {
    const { sb, ctl } = await start();
    await ctl('POST', '/load', { key: 'key-a', json: { nextId: 77, pets: [{ id: 2, name: 'Rex', categoryId: 1 }] } });
    const atSave = await exportText(ctl);
    await ctl('POST', '/checkpoints', { key: 'key-a', json: { name: 'gap' } });
    await ctl('POST', '/reset', { key: 'key-a', json: { empty: true } });
    await ctl('POST', '/checkpoints/gap/restore', { key: 'key-a' });
    expect(await exportText(ctl)).toBe(atSave);
    expect((await sb.op('createPet', '/pets', { key: 'key-a', method: 'POST', json: { name: 'Next', categoryId: 1 } })).body.id).toBe(77);
  });

  it('refuses a taken name with 409 unless overwrite is sent, and a bad name with 400; nothing changes', async () => {
    const { ctl } = await start();
    await ctl('POST', '/reset', { key: 'key-a', json: { seed: 1, count: 3 } });
    await ctl('POST', '/checkpoints', { key: 'key-a', json: { name: 'one' } });
    await ctl('POST', '/reset', { key: 'key-a', json: { seed: 1, count: 5 } });
    const taken = await ctl('POST', '/checkpoints', { key: 'key-a', json: { name: 'one' } });
    expect(taken.status).toBe(409);
    expect(taken.body).toMatchObject({ code: 'conflict', status: 409 });
    expect(taken.body.message).toContain('overwrite');
    expect((await ctl('GET', '/checkpoints', { key: 'key-a' })).body.checkpoints).toMatchObject([{ name: 'one', count: 3 }]);

    const replaced = await ctl('POST', '/checkpoints', { key: 'key-a', json: { name: 'one', overwrite: true } });
    expect(replaced.status).toBe(201);
    expect(replaced.body).toMatchObject({ name: 'one', count: 5, nextId: 6 });

    for (const name of ['../escape', '.hidden', '', 'a/b', 'x'.repeat(65), 'spaces are not', 7]) {
      const bad = await ctl('POST', '/checkpoints', { key: 'key-a', json: { name } });
      expect(bad.status, String(name)).toBe(400);
      expect(bad.body.code).toBe('invalid_request');
    }
    expect((await ctl('POST', '/checkpoints', { key: 'key-a', json: {} })).status).toBe(400);
    expect((await ctl('GET', '/checkpoints', { key: 'key-a' })).body.checkpoints.map((c: { name: string }) => c.name)).toEqual(['one']);
  });
});

describe('saves while creates land', () => {
  it('keeps count and next id of the same moment as the pets: a restore answers what the save answered', async () => {
    const { sb, ctl } = await start();
    await ctl('POST', '/reset', { key: 'key-a', json: { empty: true } });
    for (let round = 0; round < 5; round += 1) {
      const creates = Array.from({ length: 20 }, (_, i) => create(sb, 'key-a', `Racer ${round}-${i}`));
      const saved = await ctl('POST', '/checkpoints', { key: 'key-a', json: { name: `race-${round}` } });
      await Promise.all(creates);
      expect(saved.status).toBe(201);
      const restored = await ctl('POST', `/checkpoints/race-${round}/restore`, { key: 'key-a' });
      expect(restored.body).toMatchObject({ count: saved.body.count, nextId: saved.body.nextId });
      const pets = JSON.parse(await exportText(ctl)) as { nextId: number; pets: { id: number }[] };
      expect(pets.pets).toHaveLength(saved.body.count);
      expect(pets.nextId).toBe(saved.body.nextId);
    }
  });
});

describe('list, delete, unknown names', () => {
  it('lists by name with counts and sizes, per workspace; deletes one; 404 for what is not there', async () => {
    const { ctl } = await start();
    await ctl('POST', '/reset', { key: 'key-a', json: { seed: 2, count: 4 } });
    await ctl('POST', '/checkpoints', { key: 'key-a', json: { name: 'b-second' } });
    await ctl('POST', '/checkpoints', { key: 'key-a', json: { name: 'a-first' } });
    const list = await ctl('GET', '/checkpoints', { key: 'key-a' });
    expect(list.status).toBe(200);
    expect(list.body.limits).toEqual({ count: 20, bytes: 256 * 1024 * 1024 });
    expect(list.body.checkpoints.map((c: { name: string }) => c.name)).toEqual(['a-first', 'b-second']);
    expect(list.body.checkpoints[0]).toMatchObject({ count: 4, nextId: 5 });
    expect(list.body.checkpoints[0].bytes).toBeGreaterThan((await exportText(ctl)).length);

    // Another workspace has its own (none), and cannot restore or delete these.
    expect((await ctl('GET', '/checkpoints', { key: 'key-b' })).body.checkpoints).toEqual([]);
    expect((await ctl('POST', '/checkpoints/a-first/restore', { key: 'key-b' })).status).toBe(404);
    expect((await ctl('DELETE', '/checkpoints/a-first', { key: 'key-b' })).status).toBe(404);

    const deleted = await ctl('DELETE', '/checkpoints/a-first', { key: 'key-a' });
    expect(deleted.status).toBe(200);
    expect(deleted.body.cleared).toBe(1);
    expect((await ctl('GET', '/checkpoints', { key: 'key-a' })).body.checkpoints.map((c: { name: string }) => c.name)).toEqual(['b-second']);
    const again = await ctl('DELETE', '/checkpoints/a-first', { key: 'key-a' });
    expect(again.status).toBe(404);
    expect(again.body.message).toContain("'a-first'");
  });

  it('answers 404 for a restore of an unknown name (or one that cannot be a name) and changes nothing', async () => {
    const { ctl } = await start();
    const before = await exportText(ctl);
    const unknown = await ctl('POST', '/checkpoints/never-saved/restore', { key: 'key-a' });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ code: 'not_found', status: 404 });
    expect(unknown.body.message).toContain("No checkpoint 'never-saved'");
    expect((await ctl('POST', '/checkpoints/..%2Fdb/restore', { key: 'key-a' })).status).toBe(404);
    expect(await exportText(ctl)).toBe(before);
  });
});

describe('copy', () => {
  it("copies one workspace's data into another key's workspace, byte for byte, naming workspaces by id only", async () => {
    const { sb, ctl } = await start();
    await ctl('POST', '/reset', { key: 'key-a', json: { seed: 8, count: 6 } });
    await create(sb, 'key-a', 'Copied');
    await ctl('POST', '/reset', { key: 'key-b', json: { empty: true } });
    const source = await exportText(ctl, 'key-a');
    const copied = await ctl('POST', '/copy', { key: 'key-a', headers: { 'x-sandbox-target-key': 'key-b' } });
    expect(copied.status).toBe(200);
    expect(copied.body).toEqual({ from: sb.workspaces.idOf('key-a'), to: sb.workspaces.idOf('key-b'), count: 7, nextId: 8 });
    expect(copied.text).not.toMatch(/key-a|key-b/);
    expect(await exportText(ctl, 'key-b')).toBe(source);
    // The two stay separate afterwards.
    await create(sb, 'key-b', 'Only in b');
    expect(await exportText(ctl, 'key-a')).toBe(source);
  });

  it("copies a checkpoint of the source into the target; the target's own checkpoints are untouched", async () => {
    const { ctl } = await start();
    await ctl('POST', '/reset', { key: 'key-a', json: { seed: 3, count: 2 } });
    const atSave = await exportText(ctl, 'key-a');
    await ctl('POST', '/checkpoints', { key: 'key-a', json: { name: 'two' } });
    await ctl('POST', '/reset', { key: 'key-a', json: { seed: 3, count: 9 } });
    const res = await ctl('POST', '/copy', { key: 'key-a', headers: { 'x-sandbox-target-key': 'key-b', ...JSON_TYPE }, json: { checkpoint: 'two' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ count: 2, nextId: 3 });
    expect(await exportText(ctl, 'key-b')).toBe(atSave);
    expect((await ctl('GET', '/checkpoints', { key: 'key-b' })).body.checkpoints).toEqual([]);
  });

  it('refuses a copy without a target (400), to an unknown key or from an unknown checkpoint (404), changing nothing', async () => {
    const { ctl } = await start();
    const before = await exportText(ctl, 'key-b');
    expect((await ctl('POST', '/copy', { key: 'key-a' })).status).toBe(400);
    const unknownKey = await ctl('POST', '/copy', { key: 'key-a', headers: { 'x-sandbox-target-key': 'key-zzz' } });
    expect(unknownKey.status).toBe(404);
    expect(unknownKey.text).not.toContain('key-zzz');
    // The refusal names the header that was wrong: the target's, not the source's.
    expect(unknownKey.body.message).toBe('X-Sandbox-Target-Key is not one of the configured API keys, so it has no workspace.');
    const unknownSource = await ctl('POST', '/copy', { key: 'key-zzz', headers: { 'x-sandbox-target-key': 'key-b' } });
    expect([unknownSource.status, unknownSource.body.message]).toEqual([404, 'X-Sandbox-Key is not one of the configured API keys, so it has no workspace.']);
    const noCheckpoint = await ctl('POST', '/copy', { key: 'key-a', headers: { 'x-sandbox-target-key': 'key-b' }, json: { checkpoint: 'nope' } });
    expect(noCheckpoint.status).toBe(404);
    expect(await exportText(ctl, 'key-b')).toBe(before);
  });
});

describe('durability and limits', () => {
  // The memory store's checkpoints end with its process.
  it.skipIf(onMemory)('survives a restart: listed and restored byte for byte by the next process', async () => {
    const dir = tempDir();
    const first = await start([], dir);
    await first.ctl('POST', '/reset', { key: 'key-b', json: { seed: 6, count: 8 } });
    const atSave = await exportText(first.ctl, 'key-b');
    const saved = (await first.ctl('POST', '/checkpoints', { key: 'key-b', json: { name: 'kept' } })).body;
    await first.ctl('POST', '/reset', { key: 'key-b', json: { empty: true } });
    await first.sb.stop({ keepData: true });
    running.splice(running.indexOf(first.sb), 1);

    const second = await start([], dir);
    expect((await second.ctl('GET', '/checkpoints', { key: 'key-b' })).body.checkpoints).toEqual([saved]);
    await second.ctl('POST', '/checkpoints/kept/restore', { key: 'key-b' });
    expect(await exportText(second.ctl, 'key-b')).toBe(atSave);
  });

  // The file backend's own layout; PostgreSQL keeps checkpoints in a table, named by workspace id too (test/shared/multi-instance.test.ts).
  // About files: PostgreSQL and memory write none.
  it.skipIf(onPostgres || onMemory)('keeps each checkpoint beside the data file, named by the workspace id: no key in any file name', async () => {
    const dir = tempDir();
    const { sb, ctl } = await start([], dir);
    expect((await ctl('POST', '/checkpoints', { key: 'key-b', json: { name: 'kept' } })).status).toBe(201);
    const folder = join(dir, 'db.checkpoints', sb.workspaces.idOf('key-b'));
    expect(readdirSync(folder)).toEqual(['kept.json']);
  });

  // A checkpoint larger than the quota exists only across a restart with a lower quota, which memory does not outlive.
  it.skipIf(onMemory)('a restore past the workspace quota answers 507 and changes nothing', async () => {
    const dir = tempDir();
    const first = await start([], dir);
    await first.ctl('POST', '/reset', { key: 'key-a', json: { seed: 1, count: 10 } });
    await first.ctl('POST', '/checkpoints', { key: 'key-a', json: { name: 'ten' } });
    await first.ctl('POST', '/reset', { key: 'key-a', json: { seed: 1, count: 3 } });
    await first.sb.stop({ keepData: true });
    running.splice(running.indexOf(first.sb), 1);

    const { sb, ctl } = await start(['--quota-pets', '5'], dir);
    await create(sb, 'key-a', 'After the restart');
    const before = await exportText(ctl);
    const refused = await ctl('POST', '/checkpoints/ten/restore', { key: 'key-a' });
    expect(refused.status).toBe(507);
    expect(refused.body.code).toBe('quota_exceeded');
    expect(await exportText(ctl)).toBe(before);
    const copy = await ctl('POST', '/copy', { key: 'key-a', headers: { 'x-sandbox-target-key': 'key-b', ...JSON_TYPE }, json: { checkpoint: 'ten' } });
    expect(copy.status).toBe(507);
  });

  it('bounds the count (--checkpoint-count) and bytes (--checkpoint-bytes) of a workspace: 507, nothing saved', async () => {
    const { ctl } = await start(['--checkpoint-count', '2', '--checkpoint-bytes', '6000']);
    await ctl('POST', '/reset', { key: 'key-a', json: { seed: 1, count: 5 } });
    expect((await ctl('POST', '/checkpoints', { key: 'key-a', json: { name: 'one' } })).status).toBe(201);
    expect((await ctl('POST', '/checkpoints', { key: 'key-a', json: { name: 'two' } })).status).toBe(201);
    const third = await ctl('POST', '/checkpoints', { key: 'key-a', json: { name: 'three' } });
    expect(third.status).toBe(507);
    expect(third.body).toMatchObject({ code: 'quota_exceeded' });
    expect(third.body.message).toContain('--checkpoint-count');
    // At the cap a name may still be overwritten; other workspaces have their own cap.
    expect((await ctl('POST', '/checkpoints', { key: 'key-a', json: { name: 'two', overwrite: true } })).status).toBe(201);
    expect((await ctl('POST', '/checkpoints', { key: 'key-b', json: { name: 'three' } })).status).toBe(201);

    await ctl('DELETE', '/checkpoints/two', { key: 'key-a' });
    await ctl('POST', '/reset', { key: 'key-a', json: { seed: 1, count: 200 } });
    const big = await ctl('POST', '/checkpoints', { key: 'key-a', json: { name: 'big' } });
    expect(big.status).toBe(507);
    expect(big.body.message).toContain('--checkpoint-bytes');
    expect((await ctl('GET', '/checkpoints', { key: 'key-a' })).body.checkpoints.map((c: { name: string }) => c.name)).toEqual(['one']);
  });
});
