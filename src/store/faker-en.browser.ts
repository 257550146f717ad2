import type { Faker } from '@faker-js/faker';
import { faker } from '@faker-js/faker/locale/en';

/**
 * Faker's English build, imported with the bundle: what `faker-en.ts` loads
 * on first use in Node (the same build, so the same pets for every seed).
 * The browser build puts this file in that one's place (scripts/browser-bundle.mjs).
 */
export function fakerEn(): Faker {
  return faker;
}
