import { describe, expect, it } from 'vitest';
import { onMemory, startTestSandbox, tempDir } from '../support/harness.js';
import { post } from '../support/error-check.js';

const N = 200;

describe('parallel creates', { timeout: 120_000 }, () => {
  it(`${N} parallel POSTs get ${N} distinct ids, each with its own body${onMemory ? '' : ', all present after a restart'}`, async () => {
    const dir = tempDir();
    const sb = await startTestSandbox(['--count', '0'], dir);
    const inputs = Array.from({ length: N }, (_, i) => ({ name: `pet-${i}`, categoryId: i }));
    const results = await Promise.all(inputs.map((input) => sb.op('createPet', '/pets', post(input))));
    expect(results.map((r) => r.status)).toEqual(inputs.map(() => 201));
    // No cross-talk: every answer is the pet its own request described.
    results.forEach((r, i) => expect({ name: r.body.name, categoryId: r.body.categoryId }).toEqual(inputs[i]));
    const ids = results.map((r) => r.body.id as number);
    expect(new Set(ids).size).toBe(N);
    expect([...ids].sort((a, b) => a - b)).toEqual(Array.from({ length: N }, (_, i) => i + 1));
    const firstPage = (await sb.op('listPets', '/pets?limit=100')).body as { id: number }[];
    expect(firstPage.map((p) => p.id)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
    await sb.stop({ keepData: true });
    // The memory store keeps nothing past its process: the restart is the file and database stores' promise.
    if (onMemory) return;

    const again = await startTestSandbox([], dir);
    try {
      const byId = new Map(results.map((r) => [r.body.id as number, r.body]));
      for (const [id, pet] of byId) expect((await again.op('getPet', `/pets/${id}`)).body).toEqual(pet);
      expect((await again.op('createPet', '/pets', post({ name: 'next', categoryId: 1 }))).body.id).toBe(N + 1);
    } finally {
      await again.stop();
    }
  });
});
