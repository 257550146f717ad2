import { describe, expect, it } from 'vitest';
import { fakerEn } from '../../../src/store/faker-en.js';
import { fakerEn as browserFaker } from '../../../src/store/faker-en.browser.js';
import { generatePets } from '../../../src/store/seed.js';

describe("the browser's Faker (pet names only)", () => {
  it('seeds the same pets as the English build, byte for byte, for any seed and count', () => {
    for (const seed of [0, 1, 2, 7, 42, 1234, 99_999, 2 ** 32 - 1]) {
      const count = 10 + (seed % 300);
      expect(JSON.stringify(generatePets(seed, count, 1, browserFaker()))).toBe(JSON.stringify(generatePets(seed, count, 1, fakerEn())));
    }
  });

  it('seeds a large store the same, and the English build itself by default', () => {
    const browser = JSON.stringify(generatePets(3, 5000, 11, browserFaker()));
    expect(browser).toBe(JSON.stringify(generatePets(3, 5000, 11)));
  });
});
