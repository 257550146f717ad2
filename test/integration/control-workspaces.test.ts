/**
 * Each API key has its own workspace: pets, ids, journal and faults never
 * cross, even under concurrent traffic; with --open-keys any well-formed
 * token gets a fresh one, in a file named from a hash of the key.
 */
import { createHash, createHmac } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startControlSandbox, type Control } from '../support/control-client.js';
import { onMemory, onPostgres, type TestSandbox } from '../support/harness.js';

/** The workspace name, computed here as the spec states it (first 16 hex digits of an HMAC-SHA256 keyed with the data folder's secret). */
function idOf(sb: TestSandbox, key: string): string {
  const secret = Buffer.from(sb.secret, 'hex');
  return createHmac('sha256', secret).update(key).digest('hex').slice(0, 16);
}
/** A bare hash of a key, which anyone could check a guessed key against: never a file name. */
const bareHashOf = (key: string) => createHash('sha256').update(key).digest('hex').slice(0, 16);

describe('configured keys', () => {
  let sb: TestSandbox;
  let ctl: Control;
  beforeAll(async () => ({ sb, ctl } = await startControlSandbox()));
  afterAll(() => sb.stop());

  it("two keys never see each other's pets, and ids are per workspace", async () => {
    expect((await ctl('POST', '/reset', { key: 'key-a', json: { empty: true } })).body).toEqual({ workspace: idOf(sb, 'key-a'), count: 0, nextId: 1 });
    expect((await ctl('POST', '/reset', { key: 'key-b', json: { empty: true } })).body).toEqual({ workspace: idOf(sb, 'key-b'), count: 0, nextId: 1 });
    const a = await sb.op('createPet', '/pets', { key: 'key-a', method: 'POST', json: { name: 'Only-A', categoryId: 1 } });
    const b = await sb.op('createPet', '/pets', { key: 'key-b', method: 'POST', json: { name: 'Only-B', categoryId: 2 } });
    expect(a.body.id).toBe(1);
    expect(b.body.id).toBe(1);
    expect((await sb.op('listPets', '/pets', { key: 'key-a' })).body).toEqual([{ id: 1, name: 'Only-A', categoryId: 1 }]);
    expect((await sb.op('listPets', '/pets', { key: 'key-b' })).body).toEqual([{ id: 1, name: 'Only-B', categoryId: 2 }]);
    expect((await sb.op('getPet', '/pets/1', { key: 'key-b' })).body.name).toBe('Only-B');
  });

  it("the default workspace (no X-Sandbox-Key) is the first key's", async () => {
    await ctl('POST', '/reset', { key: 'key-a', json: { seed: 3, count: 7 } });
    const res = await ctl('GET', '/export');
    expect(res.body.pets).toHaveLength(7);
    expect((await sb.op('listPets', '/pets', { key: 'key-a' })).body).toEqual(res.body.pets);
  });

  it('100 parallel creates on each of two workspaces: each sees exactly its own', { timeout: 60_000 }, async () => {
    await ctl('POST', '/reset', { key: 'key-a', json: { empty: true } });
    await ctl('POST', '/reset', { key: 'key-b', json: { empty: true } });
    const creates = ['key-a', 'key-b'].flatMap((key) =>
      Array.from({ length: 100 }, (_, i) => sb.op('createPet', '/pets', { key, method: 'POST', json: { name: `${key}-${i}`, categoryId: i } })),
    );
    const results = await Promise.all(creates);
    expect(results.every((r) => r.status === 201)).toBe(true);
    for (const key of ['key-a', 'key-b']) {
      const { pets, nextId } = (await ctl('GET', '/export', { key })).body as { pets: { id: number; name: string }[]; nextId: number };
      expect(nextId).toBe(101);
      expect(pets.map((p) => p.id)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
      expect(pets.map((p) => p.name).sort()).toEqual(Array.from({ length: 100 }, (_, i) => `${key}-${i}`).sort());
      const listed = await sb.op('listPets', '/pets?limit=100', { key });
      expect(listed.body).toEqual(pets);
    }
  });

  it('lists the workspace of each configured key with its count', async () => {
    await ctl('POST', '/reset', { key: 'key-b', json: { seed: 1, count: 4 } });
    const res = await ctl('GET', '/workspaces');
    expect(res.body.workspaces).toContainEqual({ workspace: idOf(sb, 'key-b'), count: 4, nextId: 5 });
    expect(res.body.workspaces.map((w: { workspace: string }) => w.workspace)).toEqual([idOf(sb, 'key-a'), idOf(sb, 'key-b')]);
  });
});

describe('--open-keys', () => {
  let sb: TestSandbox;
  let ctl: Control;
  beforeAll(async () => ({ sb, ctl } = await startControlSandbox(['--open-keys', '--count', '5'])));
  afterAll(() => sb.stop());

  const newcomer = 'tester-7f3e-alice';

  it('gives any well-formed token a fresh, seeded workspace of its own', async () => {
    await sb.op('createPet', '/pets', { method: 'POST', json: { name: 'Default-only', categoryId: 1 } });
    const listed = await sb.op('listPets', '/pets', { key: newcomer });
    expect(listed.status).toBe(200);
    expect(listed.body).toHaveLength(5);
    expect(listed.body.map((p: { name: string }) => p.name)).not.toContain('Default-only');
    const created = await sb.op('createPet', '/pets', { key: newcomer, method: 'POST', json: { name: 'Alice-pet', categoryId: 2 } });
    expect(created.body.id).toBe(6);
    expect((await ctl('GET', '/export', { key: newcomer })).body.pets).toHaveLength(6);
    expect((await ctl('GET', '/export')).body.pets).toHaveLength(6);
  });

  it('still refuses a malformed token (401) and a malformed X-Sandbox-Key (400)', async () => {
    expect((await sb.op('listPets', '/pets', { headers: { authorization: 'Bearer bad token' } })).status).toBe(401);
    expect((await ctl('GET', '/export', { key: 'bad token' })).status).toBe(400);
  });

  it('lists opened workspaces by hash only', async () => {
    const res = await ctl('GET', '/workspaces');
    expect(res.body.workspaces).toEqual([]);
    expect(res.body.open).toContain(idOf(sb, newcomer));
    expect(JSON.stringify(res.body)).not.toContain(newcomer);
  });

  // Workspace files exist on the file backend only; PostgreSQL keeps a workspace as rows named by the same id.
  // About file names: PostgreSQL and memory write no file.
  it.skipIf(onPostgres || onMemory)('names the workspace file from a keyed hash of the key, never the key or a bare hash of it', async () => {
    // Closing folds each write-ahead log into its snapshot, so the files hold everything.
    await sb.workspaces.close();
    const files = readdirSync(sb.dir);
    expect(files).toContain(`db.${idOf(sb, newcomer)}.json`);
    expect(files.join()).not.toContain(bareHashOf(newcomer));
    for (const file of files) {
      expect(file).not.toContain(newcomer);
      expect(readFileSync(join(sb.dir, file), 'utf8')).not.toContain(newcomer);
    }
    expect(JSON.parse(readFileSync(join(sb.dir, `db.${idOf(sb, newcomer)}.json`), 'utf8')).pets).toContainEqual({ id: 6, name: 'Alice-pet', categoryId: 2 });
  });
});
