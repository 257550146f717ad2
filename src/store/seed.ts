import type { Faker } from '@faker-js/faker';
import { createRequire } from 'node:module';
import type { Pet, PetStatus } from './types.js';

const require = createRequire(import.meta.url);
let english: Faker | undefined;

/**
 * Faker's English build, loaded on first use: a start on an existing store
 * never generates pets and so never pays for loading it. (The package's main
 * entry loads every locale, several hundred milliseconds more; the English
 * build gives the same pets, byte for byte, for every seed.) Synchronous
 * `require` of an ES module works from Node 22.12, the oldest supported.
 */
function fakerEn(): Faker {
  english ??= (require('@faker-js/faker/locale/en') as { faker: Faker }).faker;
  return english;
}

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
 */
export function generatePets(seed: number, count: number, firstId = 1): Pet[] {
  // One shared instance, reseeded: generation is synchronous, so no other call can interleave.
  const faker = fakerEn();
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
