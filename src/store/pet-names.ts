import type { Faker } from '@faker-js/faker';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/**
 * Faker's English pet names, the one list of its locale the seeded pets
 * draw from (`animal.petName`). On Node they are read from the English
 * build; the browser build puts in this module's place one with the list
 * written into it at build time (scripts/browser-bundle.mjs), so a page
 * loads the list and not the whole locale.
 */
export function petNames(): readonly string[] {
  return (require('@faker-js/faker/locale/en') as { faker: Faker }).faker.definitions.animal.pet_name;
}
