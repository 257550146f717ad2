/**
 * Each store times its own writes and tells its listener once each settled
 * (what the metrics' store-write histogram and failure counts are made of):
 * its kind, its time, and a failure with its error; a refusal is told of as
 * a failure as much as a failed write.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { StoreError, StoreFailure } from '../../../src/kernel/store-errors.js';
import { PetStore } from '../../../src/store/file/pet-store.js';
import { seededGeneration } from '../../../src/store/load-rules.js';
import { MemoryWorkspace } from '../../../src/store/memory/workspace.js';
import { WriteTimes } from '../../../src/store/write-times.js';
import type { WorkspaceData } from '../../../src/store/backend.js';
import { tempDir } from '../../support/harness.js';
import { createPet } from '../../support/create-pet.js';

/** A store's write times with a listener that records what it hears: kind, and the failure's code or `ok`. */
function recorded() {
  const heard: { kind: string; outcome: string; seconds: number }[] = [];
  const writes = new WriteTimes();
  writes.listen((kind, seconds, failed, error) => heard.push({ kind, seconds, outcome: failed ? ((error as StoreFailure).code ?? 'error') : 'ok' }));
  return { writes, heard };
}

const quota = { pets: 3, bytes: 1_000_000 };
const opened: PetStore[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
});

/** Two creates, one over the quota, a replace and an append that clashes, told of in the order they settled. */
async function writeSome(workspace: WorkspaceData): Promise<void> {
  await createPet(workspace, { name: 'Three', categoryId: 1 });
  await expect(createPet(workspace, { name: 'Four', categoryId: 1 })).rejects.toBeInstanceOf(StoreFailure);
  await workspace.replace([{ id: 1, name: 'One', categoryId: 1 }]);
  await expect(workspace.append([{ id: 1, name: 'Again', categoryId: 1 }])).rejects.toBeInstanceOf(StoreFailure);
}

const EXPECTED = [
  { kind: 'create', outcome: 'ok' },
  { kind: 'create', outcome: 'quota_exceeded' },
  { kind: 'replace', outcome: 'ok' },
  { kind: 'append', outcome: 'invalid_request' },
];

describe('store write times', () => {
  it('the file store tells of each create, replace and append once settled, a refused one as failed with its refusal', async () => {
    const { writes, heard } = recorded();
    const store = await PetStore.open({ file: join(tempDir('petstore-times-'), 'db.json'), seed: { seed: 1, count: 2 }, quota, writes });
    opened.push(store);
    await writeSome(store);
    expect(heard.map(({ kind, outcome }) => ({ kind, outcome }))).toEqual(EXPECTED);
    for (const { seconds } of heard) expect(seconds).toBeGreaterThanOrEqual(0);
  });

  it('the file store tells of a create refused by a closed store, and still throws at once', async () => {
    const { writes, heard } = recorded();
    const store = await PetStore.open({ file: join(tempDir('petstore-times-'), 'db.json'), seed: { seed: 1, count: 2 }, writes });
    await store.close();
    expect(() => createPet(store, { name: 'Late', categoryId: 1 })).toThrow(StoreError);
    expect(() => store.replace([])).toThrow(StoreError);
    expect(heard.map(({ kind, outcome }) => ({ kind, outcome }))).toEqual([
      { kind: 'create', outcome: 'error' },
      { kind: 'replace', outcome: 'error' },
    ]);
  });

  it('the memory store tells of its writes alike', async () => {
    const { writes, heard } = recorded();
    await writeSome(new MemoryWorkspace(seededGeneration({ seed: 1, count: 2 }), quota, writes));
    expect(heard.map(({ kind, outcome }) => ({ kind, outcome }))).toEqual(EXPECTED);
  });

  it('tells no one until a listener is given, then each write as it settles', async () => {
    const writes = new WriteTimes();
    await expect(writes.time('create', () => Promise.resolve(1))).resolves.toBe(1);
    const heard: string[] = [];
    writes.listen((kind) => heard.push(kind));
    await expect(writes.time('append', () => Promise.reject(new Error('no')))).rejects.toThrow('no');
    expect(heard).toEqual(['append']);
  });
});
