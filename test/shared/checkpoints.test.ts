/**
 * Named checkpoints shared by two sandbox processes on one PostgreSQL
 * database: what is saved through one is listed, restored, copied and
 * deleted through the other; the limits hold when both save at once; and a
 * checkpoint's count and next id are those of its pets while creates land
 * through the other instance.
 */
import { describe, expect, it } from 'vitest';
import { KEY } from '../support/harness.js';
import { runCli } from '../support/spawn.js';
import { twoInstances, type Instance } from '../support/shared-sandboxes.js';

interface Saved {
  name: string;
  savedAt: string;
  count: number;
  nextId: number;
  bytes: number;
}

const ARGS = ['--api-keys', `${KEY},key-b,key-c`, '--checkpoint-count', '3'];

const two = twoInstances(['--count', '5', ...ARGS]);

const exportOf = async (instance: Instance, key = KEY) => {
  const res = await instance.ctl('GET', '/export', { key });
  expect(res.status).toBe(200);
  return res.text;
};

const names = async (instance: Instance, key = KEY) =>
  ((await instance.ctl('GET', '/checkpoints', { key })).body as { checkpoints: Saved[] }).checkpoints.map((c) => c.name);

describe('checkpoints shared by two instances', () => {
  it('a checkpoint saved through A is listed through B as saved, and restored through B byte for byte', async () => {
    const raw = await fetch(`${two.a.child.baseUrl}/pets`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: '{"name":"Zoë 🐕 \\"big\\"","categoryId":9223372036854775807}',
    });
    expect(raw.status).toBe(201);
    const atSave = await exportOf(two.a);
    expect(atSave).toContain('"categoryId":9223372036854775807');
    const saved = await two.a.ctl('POST', '/checkpoints', { key: KEY, json: { name: 'across' } });
    expect(saved.status).toBe(201);

    const listed = await two.b.ctl('GET', '/checkpoints', { key: KEY });
    expect((listed.body as { checkpoints: Saved[] }).checkpoints).toEqual([saved.body]);

    await two.b.ctl('POST', '/reset', { key: KEY, json: { empty: true } });
    expect(await exportOf(two.a)).not.toBe(atSave);
    const restored = await two.b.ctl('POST', '/checkpoints/across/restore', { key: KEY });
    expect(restored.status).toBe(200);
    expect(restored.body).toMatchObject({ count: (saved.body as Saved).count, nextId: (saved.body as Saved).nextId });
    expect(await exportOf(two.a)).toBe(atSave);
    expect(await exportOf(two.b)).toBe(atSave);
  });

  it('a copy through B of a checkpoint saved through A, then a delete through B that A sees', async () => {
    const atSave = await exportOf(two.a);
    expect((await two.a.ctl('POST', '/checkpoints', { key: KEY, json: { name: 'to-copy' } })).status).toBe(201);
    const copied = await two.b.ctl('POST', '/copy', {
      key: KEY,
      headers: { 'x-sandbox-target-key': 'key-b', 'content-type': 'application/json' },
      json: { checkpoint: 'to-copy' },
    });
    expect(copied.status).toBe(200);
    expect(await exportOf(two.a, 'key-b')).toBe(atSave);

    expect((await two.b.ctl('DELETE', '/checkpoints/to-copy', { key: KEY })).status).toBe(200);
    expect(await names(two.a)).toEqual(['across']);
    expect((await two.a.ctl('POST', '/checkpoints/to-copy/restore', { key: KEY })).status).toBe(404);
    expect((await two.a.ctl('DELETE', '/checkpoints/to-copy', { key: KEY })).status).toBe(404);
  });

  it('--checkpoint-count holds when saves arrive through both at once: exactly 3 are kept', async () => {
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) => (i % 2 ? two.a : two.b).ctl('POST', '/checkpoints', { key: 'key-c', json: { name: `burst-${i}` } })),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(3);
    expect(statuses.filter((s) => s === 507)).toHaveLength(9);
    for (const refused of results.filter((r) => r.status === 507)) expect(refused.body).toMatchObject({ code: 'quota_exceeded' });
    const kept = results.flatMap((r) => (r.status === 201 ? [(r.body as Saved).name] : [])).sort();
    expect(await names(two.a, 'key-c')).toEqual(kept);
    expect(await names(two.b, 'key-c')).toEqual(kept);
  }, 60_000);

  it('the count and next id saved through A are those of its pets while creates land through B', async () => {
    await two.a.ctl('POST', '/reset', { key: 'key-b', json: { empty: true } });
    for (let round = 0; round < 4; round += 1) {
      const creates = Array.from({ length: 30 }, (_, i) =>
        fetch(`${two.b.child.baseUrl}/pets`, {
          method: 'POST',
          headers: { authorization: 'Bearer key-b', 'content-type': 'application/json' },
          body: JSON.stringify({ name: `Racer ${round}-${i}`, categoryId: 1 }),
        }).then((res) => res.status),
      );
      const saved = await two.a.ctl('POST', '/checkpoints', { key: 'key-b', json: { name: 'race', overwrite: true } });
      expect(await Promise.all(creates)).toEqual(Array(30).fill(201));
      expect(saved.status).toBe(201);
      const restored = await two.b.ctl('POST', '/checkpoints/race/restore', { key: 'key-b' });
      expect(restored.body).toMatchObject({ count: (saved.body as Saved).count, nextId: (saved.body as Saved).nextId });
      const set = JSON.parse(await exportOf(two.a, 'key-b')) as { nextId: number; pets: unknown[] };
      expect(set.pets).toHaveLength((saved.body as Saved).count);
      expect(set.nextId).toBe((saved.body as Saved).nextId);
    }
  }, 120_000);

  it('the QA commands checkpoint and copy work on the database itself, and the instances serve what they did', async () => {
    const cli = (...args: string[]) => runCli([...args, '--store', two.url, ...ARGS]);
    await two.a.ctl('POST', '/reset', { key: KEY, json: { seed: 3, count: 4 } });
    const atSave = await exportOf(two.b);
    const save = await cli('checkpoint', 'save', 'by-cli');
    expect(save.stderr).toBe('');
    expect(save.code).toBe(0);
    expect(JSON.parse(save.stdout)).toMatchObject({ name: 'by-cli', count: 4, nextId: 5 });
    expect(await names(two.a)).toContain('by-cli');
    const list = await cli('checkpoint', 'list');
    expect(JSON.parse(list.stdout)).toMatchObject({ limits: { count: 3 } });

    await two.b.ctl('POST', '/reset', { key: KEY, json: { empty: true } });
    expect((await cli('checkpoint', 'restore', 'by-cli')).code).toBe(0);
    expect(await exportOf(two.a)).toBe(atSave);
    const copy = await cli('copy', '--to', 'key-b', '--checkpoint', 'by-cli');
    expect(copy.code).toBe(0);
    expect(JSON.parse(copy.stdout)).toMatchObject({ count: 4, nextId: 5 });
    expect(await exportOf(two.b, 'key-b')).toBe(atSave);

    expect((await cli('checkpoint', 'delete', 'by-cli')).code).toBe(0);
    expect(await names(two.b)).not.toContain('by-cli');
    const gone = await cli('checkpoint', 'restore', 'by-cli');
    expect(gone.code).toBe(1);
    expect(gone.stderr).toContain("No checkpoint 'by-cli'");
  }, 120_000);
});
