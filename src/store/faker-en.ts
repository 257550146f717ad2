import type { Faker } from '@faker-js/faker';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
let english: Faker | undefined;

/**
 * Faker's English build, loaded on first use: a start on an existing store
 * never generates pets and so never pays for loading it. (The package's main
 * entry loads every locale, several hundred milliseconds more; the English
 * build gives the same pets, byte for byte, for every seed.) Synchronous
 * `require` of an ES module works from Node 22.12, the oldest supported.
 * The browser build puts `faker-en.browser.ts` in this file's place
 * (scripts/browser-bundle.mjs): a browser has no `require`.
 */
export function fakerEn(): Faker {
  english ??= (require('@faker-js/faker/locale/en') as { faker: Faker }).faker;
  return english;
}
