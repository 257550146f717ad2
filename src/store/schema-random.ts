/**
 * The numbers schema-based seeding draws from: a small seeded generator
 * (mulberry32) keyed by labels, so that each collection's and each item's
 * values depend on the seed and their own place only, never on what was
 * drawn before them elsewhere.
 */

/** A source of numbers in [0, 1), as `Math.random` gives: a seeded one for seeding. */
export type Random = () => number;

/** FNV-1a over the text: a 32-bit number that mixes every character. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** A generator seeded by its labels (the seed, a collection, an index): the same labels, the same numbers. */
export function seededRandom(...labels: readonly (string | number)[]): Random {
  let state = hash(labels.join('\u0000'));
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** An integer from `min` to `max`, both included (`min` when the range is empty). */
export function between(random: Random, min: number, max: number): number {
  if (!(max > min)) return min;
  return Math.min(max, min + Math.floor(random() * (max - min + 1)));
}

/** True with probability `p`. */
export const chance = (random: Random, p: number): boolean => random() < p;

/** One element of a non-empty list. */
export function pick<T>(random: Random, list: readonly T[]): T {
  return list[Math.min(list.length - 1, Math.floor(random() * list.length))] as T;
}

/** A 32-bit seed for Faker drawn from the generator. */
export const fakerSeedOf = (random: Random): number => Math.floor(random() * 4294967296);

const hex = (random: Random, digits: number) => Array.from({ length: digits }, () => between(random, 0, 15).toString(16)).join('');

/** A UUID in version 4's shape (version and variant bits set), drawn from the generator. */
export function uuidV4(random: Random): string {
  const variant = pick(random, ['8', '9', 'a', 'b']);
  return `${hex(random, 8)}-${hex(random, 4)}-4${hex(random, 3)}-${variant}${hex(random, 3)}-${hex(random, 12)}`;
}
