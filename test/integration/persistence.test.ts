import { describe, expect, it } from 'vitest';
import { onMemory, startTestSandbox, tempDir } from '../support/harness.js';
import { post } from '../support/error-check.js';

// The memory store keeps nothing past its process: what survives a restart is the file and database stores' promise.
describe.skipIf(onMemory)('data survives a restart on the same folder', { timeout: 60_000 }, () => {
  it('created pets are still there, unchanged, and ids continue without reuse', async () => {
    const dir = tempDir();
    const first = await startTestSandbox([], dir);
    const inputs = [
      { name: 'Rex', categoryId: 1, status: 'available' },
      { name: 'Bubbles', categoryId: 4 },
      { name: 'Ünïcødé 🐶', categoryId: 9007199254740991, status: 'sold' },
    ];
    const created = [];
    for (const input of inputs) created.push((await first.op('createPet', '/pets', post(input))).body);
    expect(created.map((p) => p.id)).toEqual([51, 52, 53]);
    const listedBefore = (await first.op('listPets', '/pets?limit=100')).body;
    await first.stop({ keepData: true });

    const second = await startTestSandbox([], dir);
    try {
      expect((await second.op('listPets', '/pets?limit=100')).body).toEqual(listedBefore);
      for (const pet of created) {
        const res = await second.op('getPet', `/pets/${pet.id}`);
        expect(res.body).toEqual(pet);
      }
      expect('status' in (await second.op('getPet', '/pets/52')).body).toBe(false);
      const next = await second.op('createPet', '/pets', post({ name: 'After', categoryId: 2 }));
      expect(next.body.id).toBe(54);
    } finally {
      await second.stop({ keepData: true });
    }

    // A second restart (after the first folded its log into the snapshot) still has everything.
    const third = await startTestSandbox([], dir);
    try {
      const all = (await third.op('listPets', '/pets?limit=100')).body as { id: number }[];
      expect(all.map((p) => p.id)).toEqual(Array.from({ length: 54 }, (_, i) => i + 1));
      expect((await third.op('createPet', '/pets', post({ name: 'Later', categoryId: 2 }))).body.id).toBe(55);
    } finally {
      await third.stop();
    }
  });

  it('an existing data file is served as is: --seed and --count apply only to a fresh store', async () => {
    const dir = tempDir();
    const first = await startTestSandbox(['--seed', '1', '--count', '5'], dir);
    const before = (await first.op('listPets', '/pets')).body;
    await first.stop({ keepData: true });
    const second = await startTestSandbox(['--seed', '99', '--count', '30'], dir);
    try {
      expect((await second.op('listPets', '/pets')).body).toEqual(before);
      expect(before).toHaveLength(5);
    } finally {
      await second.stop();
    }
  });
});
