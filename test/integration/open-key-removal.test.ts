/**
 * With --open-keys, the workspaces of keys that are not configured stay
 * within --open-key-workspaces and --open-key-ttl: the least recently used
 * one that no request holds goes, with its pets, checkpoints and journal,
 * and its key comes back to a fresh workspace; a configured key's is never
 * removed. Run on the data file and the memory store alike.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { controlOf } from '../support/control-client.js';
import { post } from '../support/error-check.js';
import { onPostgres, startTestSandbox, type TestSandbox } from '../support/harness.js';

let sb: TestSandbox | undefined;
afterEach(() => sb?.stop());

const names = async (s: TestSandbox, key: string) => ((await s.op('listPets', '/pets', { key })).body as { name: string }[]).map((p) => p.name);

// PostgreSQL removes in the background and spares workspaces any instance used in the last seconds: test/shared/open-keys-bounded.test.ts covers it.
describe.skipIf(onPostgres)('workspaces of open keys, bounded', { timeout: 60_000 }, () => {
  it('beyond --open-key-workspaces the least recently used goes, with its checkpoints and journal; configured keys stay', async () => {
    sb = await startTestSandbox(['--open-keys', '--open-key-workspaces', '2', '--count', '0']);
    const s = sb;
    const ctl = controlOf(s);
    expect((await s.op('createPet', '/pets', { ...post({ name: 'configured', categoryId: 1 }) })).status).toBe(201);
    for (const key of ['open-1', 'open-2', 'open-3', 'open-4']) {
      expect((await s.op('createPet', '/pets', { key, ...post({ name: key, categoryId: 1 }) })).status).toBe(201);
      if (key === 'open-1') expect((await ctl('POST', '/checkpoints', { key, json: { name: 'mine' } })).status).toBe(201);
    }
    expect(s.backend.workspaces.removedCount()).toBe(2);
    expect(await names(s, 'open-4')).toEqual(['open-4']);
    expect(await names(s, 'open-3')).toEqual(['open-3']);
    // open-1 was removed: it starts afresh (seeded with --count 0), its checkpoint and journal gone with it.
    expect(await names(s, 'open-1')).toEqual([]);
    expect((await ctl('GET', '/checkpoints', { key: 'open-1' })).body.checkpoints).toEqual([]);
    expect((await ctl('GET', '/journal', { key: 'open-1' })).body.entries).toHaveLength(1);
    expect(await names(s, 'sandbox-key')).toEqual(['configured']);
  });

  it('a workspace unused past --open-key-ttl goes', async () => {
    sb = await startTestSandbox(['--open-keys', '--open-key-ttl', '1', '--count', '0']);
    const s = sb;
    expect((await s.op('createPet', '/pets', { key: 'brief', ...post({ name: 'brief', categoryId: 1 }) })).status).toBe(201);
    for (let i = 0; i < 100 && s.backend.workspaces.removedCount() === 0; i++) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(s.backend.workspaces.removedCount()).toBe(1);
    expect(await names(s, 'brief')).toEqual([]);
  });

  it('requests timed into removals are answered from the workspace or from a fresh one, never refused', async () => {
    sb = await startTestSandbox(['--open-keys', '--open-key-workspaces', '1', '--count', '0']);
    const s = sb;
    const statuses: number[] = [];
    // Each new key's first request removes the other open key's workspace, while a request of that key arrives.
    for (let round = 0; round < 30; round++) {
      const answers = await Promise.all([
        s.call('/pets', { key: 'returning-key', ...post({ name: `again-${round}`, categoryId: 1 }) }),
        s.call('/pets', { key: `new-key-${round}`, ...post({ name: 'new', categoryId: 1 }) }),
        s.call('/pets?limit=5', { key: 'returning-key' }),
      ]);
      statuses.push(...answers.map((a) => a.status));
    }
    expect(s.backend.workspaces.removedCount()).toBeGreaterThan(20);
    expect(statuses.filter((status) => status !== 201 && status !== 200)).toEqual([]);
  });
});
