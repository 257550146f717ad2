import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PetStore } from '../../../src/store/file/pet-store.js';
import { generatePets } from '../../../src/store/seed.js';
import { tempDir } from '../../support/harness.js';

/** The bytes of a freshly seeded data file. */
async function seededFile(seed: number, count: number): Promise<string> {
  const dir = tempDir('petstore-seed-');
  try {
    const file = join(dir, 'db.json');
    const store = await PetStore.open({ file, seed: { seed, count } });
    await store.close();
    return readFileSync(file, 'utf8');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('seeded data', () => {
  it('the same seed gives a byte-identical data file', async () => {
    const [a, b] = await Promise.all([seededFile(7, 200), seededFile(7, 200)]);
    expect(a.length).toBeGreaterThan(1000);
    expect(a).toBe(b);
  });

  it.each([
    [1, 2],
    [7, 8],
    [0, 4294967295],
  ])('seeds %i and %i give different data', async (x, y) => {
    const [a, b] = await Promise.all([seededFile(x, 50), seededFile(y, 50)]);
    expect(a).not.toBe(b);
    expect(JSON.parse(a).pets).not.toEqual(JSON.parse(b).pets);
  });

  it('ids run 1..count, every status occurs, and some pets have no status key at all', () => {
    const pets = generatePets(1, 200);
    expect(pets.map((p) => p.id)).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
    const statuses = new Set(pets.map((p) => p.status));
    expect(statuses).toEqual(new Set(['available', 'pending', 'sold', undefined]));
    const bare = pets.filter((p) => !('status' in p));
    expect(bare.length).toBeGreaterThan(0);
    for (const p of pets) expect(Object.values(p)).not.toContain(undefined);
  });

  it('the first pets of a larger seeding are the same pets', () => {
    expect(generatePets(3, 100).slice(0, 10)).toEqual(generatePets(3, 10));
  });
});
