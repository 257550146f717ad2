/**
 * A pet's JSON text kept by the index (issue 27, item 3): built once, the
 * same text `stringifyJson` gives with its UTF-8 length, dropped whole by a
 * reset, bounded, never kept for an id not held.
 */
import { describe, expect, it } from 'vitest';
import { stringifyJson } from '../../../src/kernel/json.js';
import { PetIndex } from '../../../src/store/pet-index.js';
import { buildPet } from '../../../src/store/rules.js';

const pets = (names: string[]) => names.map((name, i) => buildPet(i + 1, { name, categoryId: 1, status: 'sold' }));

describe('PetIndex.text', () => {
  it('is the pet, its stringifyJson text and its UTF-8 length, built once', () => {
    const index = new PetIndex(pets(['Rex', 'Zoë 🐕', 'Ada']));
    const text = index.text(2);
    expect(text).toEqual({ pet: index.get(2), json: stringifyJson(index.get(2)), byteLength: Buffer.byteLength(stringifyJson(index.get(2))) });
    expect(text?.byteLength).toBeGreaterThan(text?.json.length ?? 0);
    expect(index.text(2)).toBe(text);
  });

  it('is dropped by a reset, and not kept for an id a later add takes', () => {
    const index = new PetIndex(pets(['Rex', 'Ada']));
    expect(index.text(2)?.pet.name).toBe('Ada');
    index.reset(pets(['Other', 'New']), 0);
    expect(index.text(2)?.pet.name).toBe('New');
    expect(index.text(3)).toBeUndefined();
    index.add(buildPet(3, { name: 'Added', categoryId: 2 }), 0);
    expect(index.text(3)?.json).toBe('{"id":3,"name":"Added","categoryId":2}');
  });

  it('keeps at most a bounded number of texts, and stays right past the bound', () => {
    const index = new PetIndex(pets(Array.from({ length: 5000 }, (_, i) => `p${i}`)));
    const first = index.text(1);
    for (let id = 2; id <= 5000; id++) index.text(id);
    expect(index.text(1)).not.toBe(first);
    expect(index.text(1)).toEqual(first);
  });
});
