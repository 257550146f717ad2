/**
 * The file backend's checkpoints: the export text kept byte for byte, one
 * save or delete of a workspace at a time (so a name is taken once and the
 * limits hold under concurrent calls), a refused save leaving no file, and
 * files that are not checkpoints ignored.
 */
import { readdirSync, writeFileSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CHECKPOINT_NAME, FileCheckpoints } from '../../../src/store/file/checkpoints.js';
import { StoreFailure } from '../../../src/kernel/store-errors.js';
import { tempDir } from '../../support/harness.js';

const WS = '0123456789abcdef';
const text = (n: number) => JSON.stringify({ nextId: n + 1, pets: Array.from({ length: n }, (_, i) => ({ id: i + 1, name: `Pet, "${i}"\n`, categoryId: 1 })) });
const input = (n: number) => ({ count: n, nextId: n + 1, text: [text(n).slice(0, 7), text(n).slice(7)] });

function store(limits = { count: 5, bytes: 1_000_000 }): { checkpoints: FileCheckpoints; dir: string } {
  const dir = tempDir('petstore-checkpoints-');
  return { checkpoints: new FileCheckpoints(join(dir, 'db.json'), limits), dir };
}

const codeOf = (error: unknown) => (error instanceof StoreFailure ? error.code : String(error));

describe('FileCheckpoints', () => {
  it('reads back the export text byte for byte, lists it from its head line, and deletes it', async () => {
    const { checkpoints, dir } = store();
    const saved = await checkpoints.save(WS, 'one', input(3), false);
    expect(saved).toMatchObject({ name: 'one', count: 3, nextId: 4 });
    expect(await checkpoints.read(WS, 'one')).toBe(text(3));
    expect(await checkpoints.list(WS)).toEqual([saved]);
    expect(readFileSync(join(dir, 'db.checkpoints', WS, 'one.json')).length).toBe(saved.bytes);
    expect(await checkpoints.read('fedcba9876543210', 'one')).toBeUndefined();
    expect(await checkpoints.delete(WS, 'one')).toBe(true);
    expect(await checkpoints.delete(WS, 'one')).toBe(false);
    expect(await checkpoints.read(WS, 'one')).toBeUndefined();
  });

  it('takes a name once when saves race, unless they overwrite', async () => {
    const { checkpoints } = store();
    const results = await Promise.allSettled([1, 2, 3, 4].map((n) => checkpoints.save(WS, 'race', input(n), false)));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(results.filter((r) => r.status === 'rejected').map((r) => codeOf((r as PromiseRejectedResult).reason))).toEqual([
      'conflict',
      'conflict',
      'conflict',
    ]);
    await Promise.all([5, 6, 7].map((n) => checkpoints.save(WS, 'race', input(n), true)));
    // The last save of the queue wins, whole.
    expect(await checkpoints.read(WS, 'race')).toBe(text(7));
  });

  it('holds the count limit under concurrent saves, and refuses past the bytes limit leaving no file', async () => {
    const { checkpoints, dir } = store({ count: 2, bytes: 400 });
    const results = await Promise.allSettled(['a', 'b', 'c', 'd'].map((name) => checkpoints.save(WS, name, input(1), false)));
    expect(results.map((r) => (r.status === 'fulfilled' ? 'saved' : codeOf(r.reason)))).toEqual(['saved', 'saved', 'quota_exceeded', 'quota_exceeded']);
    await checkpoints.delete(WS, 'b');
    await expect(checkpoints.save(WS, 'big', input(10), false)).rejects.toMatchObject({ code: 'quota_exceeded' });
    expect(readdirSync(join(dir, 'db.checkpoints', WS))).toEqual(['a.json']);
  });

  it('ignores files that are not checkpoints, and refuses names that are not names', async () => {
    const { checkpoints, dir } = store();
    const folder = join(dir, 'db.checkpoints', WS);
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'notes.txt'), 'hello');
    writeFileSync(join(folder, 'broken.json'), '{"not":"a head"}\n{}');
    writeFileSync(join(folder, '.x.json.tmp'), 'partial');
    expect(await checkpoints.list(WS)).toEqual([]);
    await expect(checkpoints.read(WS, 'broken')).rejects.toThrow(/damaged/);
    for (const name of ['../db', '.hidden', 'a/b', '', 'x'.repeat(65)]) {
      expect(CHECKPOINT_NAME.test(name), name).toBe(false);
      await expect(checkpoints.save(WS, name, input(1), false)).rejects.toMatchObject({ code: 'invalid_request' });
    }
    expect(() => checkpoints.folderOf('../other')).toThrow(/workspace id/);
  });
});
