import { describe, expect, it } from 'vitest';
import { StoreFailure } from '../../../src/kernel/store-errors.js';
import { exportJson } from '../../../src/store/export-json.js';
import { prepareCreate, quotaRefusal } from '../../../src/store/rules.js';
import { EMPTY, appendClash, loadTotals, nextGeneration, seededGeneration } from '../../../src/store/load-rules.js';
import { generatePets } from '../../../src/store/seed.js';
import { stringifyJson } from '../../../src/kernel/json.js';
import type { Pet } from '../../../src/store/types.js';

const rex = { name: 'Rex', categoryId: 1 };
const pet = (id: number): Pet => ({ id, name: `P${id}`, categoryId: 1 });

/** The code and message of what `work` throws. */
function refusal(work: () => unknown): { code: string; message: string } {
  try {
    work();
  } catch (error) {
    expect(error).toBeInstanceOf(StoreFailure);
    const { code, message } = error as StoreFailure;
    return { code, message };
  }
  throw new Error('nothing was refused');
}

describe('the rules every store keeps alike', () => {
  it('a create gets its provisional id, its JSON text and the bytes it reserves', () => {
    const made = prepareCreate({ ...rex, status: 'available' }, 7, { pets: 0, bytes: 0 }, { pets: 10, bytes: 1000 });
    expect(made.pet).toEqual({ id: 7, name: 'Rex', categoryId: 1, status: 'available' });
    expect(made.json).toBe('{"id":7,"name":"Rex","categoryId":1,"status":"available"}');
    expect(made.reserved).toBe(made.json.length);
  });

  it('a create past the quota, counting what waits, is refused: nothing stored', () => {
    expect(refusal(() => prepareCreate(rex, 3, { pets: 2, bytes: 0 }, { pets: 2, bytes: 1000 }))).toEqual({
      code: 'quota_exceeded',
      message: 'The workspace holds its quota of 2 pets (--quota-pets). Nothing was stored.',
    });
    expect(refusal(() => prepareCreate(rex, 1, { pets: 0, bytes: 990 }, { pets: 2, bytes: 1000 })).message).toBe(
      'The workspace would exceed its quota of 1000 bytes of pet data (--quota-bytes). Nothing was stored.',
    );
    expect(quotaRefusal('Full.', 'loaded')).toMatchObject({ code: 'quota_exceeded', message: 'Full. Nothing was loaded.' });
  });

  it('an append naming a stored id is refused whole, naming the first such id', () => {
    const stored = new Set([2, 5]);
    expect(appendClash((id) => stored.has(id), [pet(1), pet(3)])).toBeUndefined();
    expect(appendClash((id) => stored.has(id), [pet(1), pet(5), pet(2)])).toMatchObject({
      code: 'invalid_request',
      message: 'Nothing was loaded. A pet with id 5 is already stored; use "mode": "replace" or other ids.',
    });
  });

  it('a reset or load sorts the pets, and its next id is past the highest and at least the one asked', () => {
    const generation = nextGeneration([pet(9), pet(2)], undefined, undefined);
    expect(generation.pets.map((p) => p.id)).toEqual([2, 9]);
    expect(generation.nextId).toBe(10);
    expect(nextGeneration([pet(9)], 50, undefined).nextId).toBe(50);
    expect(nextGeneration([], undefined, undefined).nextId).toBe(1);
    // An append's: at least the next id the workspace held.
    expect(nextGeneration([pet(9)], 20, undefined, 70).nextId).toBe(70);
    expect(nextGeneration([pet(90)], 20, undefined, 70).nextId).toBe(91);
    expect(refusal(() => nextGeneration([pet(1), pet(2)], undefined, { pets: 1, bytes: 1000 })).message).toBe(
      'The workspace holds its quota of 1 pets (--quota-pets). Nothing was loaded.',
    );
  });

  it("a seeded workspace holds the seed's pets, their bytes, and the next id after them, on every store; empty, its next id is 1", () => {
    const seeded = seededGeneration({ seed: 7, count: 5 });
    expect(seeded.pets).toEqual(generatePets(7, 5));
    expect(seeded.nextId).toBe(6);
    expect(seeded.bytes).toBe(seeded.pets.reduce((n, p) => n + Buffer.byteLength(stringifyJson(p)), 0));
    expect(seededGeneration({ seed: 7, count: 0 })).toEqual({ pets: [], bytes: 0, nextId: 1 });
  });

  it('an export is the fixture set as JSON text, byte for byte', () => {
    const pets = [pet(1), { ...pet(2), status: 'sold' as const }];
    expect([...exportJson(pets, 9)].join('')).toBe(stringifyJson({ nextId: 9, pets }));
    expect([...exportJson([], 1)].join('')).toBe('{"nextId":1,"pets":[]}');
  });

  it("a load's totals: beside those held, within the quota, the next id at least the one asked and the one held, past the highest loaded", () => {
    const held = { count: 2, bytes: 100, nextId: 40 };
    const loaded = [pet(50), pet(45)];
    const bytes = 100 + loaded.reduce((n, p) => n + Buffer.byteLength(stringifyJson(p)), 0);
    expect(loadTotals(held, loaded, undefined, undefined)).toEqual({ count: 4, bytes, nextId: 51 });
    expect(loadTotals(held, [], 70, undefined).nextId).toBe(70);
    expect(loadTotals(held, [], undefined, undefined).nextId).toBe(40);
    expect(loadTotals(EMPTY, [], undefined, undefined)).toEqual({ count: 0, bytes: 0, nextId: 1 });
    expect(refusal(() => loadTotals(held, loaded, undefined, { pets: 3, bytes: 10_000 })).message).toBe(
      'The workspace holds its quota of 3 pets (--quota-pets). Nothing was loaded.',
    );
  });
});
