import { Faker } from '@faker-js/faker';
import { petNames } from './pet-names.js';

let english: Faker | undefined;

/**
 * What `faker-en.ts` gives on Node, for a browser: a Faker with only the
 * part of the English locale the seeded pets use (its pet names), made on
 * first use. Faker draws the same numbers from the same seed whatever its
 * locale, so the pets are the same, byte for byte (test/unit/store/faker-en.test.ts),
 * and a page loads a list of names instead of the whole locale.
 * The browser build puts this file in `faker-en.ts`'s place (scripts/browser-bundle.mjs).
 */
export function fakerEn(): Faker {
  english ??= new Faker({ locale: [{ animal: { pet_name: [...petNames()] } }] });
  return english;
}
