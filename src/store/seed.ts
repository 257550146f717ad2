import type { Faker } from '@faker-js/faker';
import { fakerEn } from './faker-en.js';
import type { Pet, PetStatus } from './types.js';

/** Categories of the seeded data: a handful, as a real store would have. */
export const SEED_CATEGORIES = [1, 2, 3, 4, 5, 6] as const;

const STATUSES: { weight: number; value: PetStatus | undefined }[] = [
  { weight: 5, value: 'available' },
  { weight: 2, value: 'pending' },
  { weight: 2, value: 'sold' },
  { weight: 1, value: undefined },
];

/**
 * Realistic pets from a fixed seed: the same seed always gives the same pets,
 * byte for byte; a different seed gives different ones. Ids run from
 * `firstId` upwards. About one pet in ten has no `status` key at all.
 * `faker` is the English build's (or, in a browser, one with its pet names only).
 */
export function generatePets(seed: number, count: number, firstId = 1, faker: Faker = fakerEn()): Pet[] {
  // One shared instance, reseeded: generation is synchronous, so no other call can interleave.
  faker.seed(seed);
  return Array.from({ length: count }, (_, i) => {
    const status = faker.helpers.weightedArrayElement(STATUSES);
    const pet: Pet = {
      id: firstId + i,
      name: faker.animal.petName(),
      categoryId: faker.helpers.arrayElement(SEED_CATEGORIES),
    };
    if (status) pet.status = status;
    return pet;
  });
}
