import { ApiError } from '../kernel/errors.js';
import type { SchemaCheck } from '../openapi/validate.js';
import { formatIssues } from '../kernel/issues.js';
import { MAX_ID } from '../store/rules.js';
import { generatePets } from '../store/seed.js';
import type { Pet } from '../store/types.js';

/**
 * A fixture set, as files in `fixtures/` and as `/__sandbox/export` writes
 * it: pets in the spec's Pet shape, or a generator header that makes them.
 */
export interface FixtureSet {
  description?: string;
  /** The next id to assign after loading; default one past the highest id. */
  nextId?: number;
  pets?: unknown[];
  /** Instead of `pets`: that many pets generated from that faker seed. */
  generate?: { seed: number; count: number };
}

/** Where the fixture sets a control request names come from: `fixtures/` on the server (`control/fixture-files.ts`). */
export interface FixtureSource {
  /** The names of the sets, sorted. */
  names(): Promise<string[]>;
  /** The set of that name; a 404 ApiError when there is none. */
  read(name: string): Promise<FixtureSet>;
}

/**
 * The pets of a fixture set, every record validated against the spec's Pet
 * schema and ids unique, before anything is written: all or nothing. A bad
 * record is named by its index and field.
 */
export function resolveFixture(set: unknown, checkPet: SchemaCheck): { pets: Pet[]; nextId?: number } {
  const s = (Array.isArray(set) ? { pets: set } : set) as FixtureSet | null;
  if (!s || typeof s !== 'object')
    throw ApiError.of('invalid_request', 'A fixture set is a JSON object with "pets" (an array of Pet) or "generate" ({seed, count}).');
  if (s.nextId !== undefined && (!Number.isSafeInteger(s.nextId) || s.nextId < 1)) throw ApiError.of('invalid_request', '"nextId" must be a positive integer.');
  let pets: unknown[];
  if (s.generate !== undefined) {
    // `generate: null` would throw on destructuring and answer 500.
    const { seed, count } = (s.generate ?? {}) as NonNullable<FixtureSet['generate']>;
    if (!Number.isSafeInteger(seed) || seed < 0 || !Number.isSafeInteger(count) || count < 0 || count > 1_000_000) {
      throw ApiError.of('invalid_request', '"generate" needs a non-negative integer "seed" and a "count" between 0 and 1000000.');
    }
    pets = generatePets(seed, count);
  } else if (Array.isArray(s.pets)) {
    pets = s.pets;
  } else {
    throw ApiError.of('invalid_request', 'A fixture set needs "pets" (an array of Pet) or "generate" ({seed, count}).');
  }
  const firstAt = new Map<number, number>();
  for (const [i, pet] of pets.entries()) {
    const issues = checkPet(pet).map((issue) => ({ ...issue, in: String(i) }));
    if (issues.length > 0) throw ApiError.of('invalid_request', `Nothing was loaded. ${formatIssues(issues)}`);
    const id = (pet as Pet).id;
    const seen = firstAt.get(id);
    if (seen !== undefined) throw ApiError.of('invalid_request', `Nothing was loaded. Record ${i} has id ${id}, already used by record ${seen}.`);
    // The store's bound (store/rules.ts): the next id after the highest must itself be exact.
    if (id > MAX_ID)
      throw ApiError.of('invalid_request', `Nothing was loaded. Record ${i} has id ${id}; ids go up to ${MAX_ID}, so that the next id is still exact.`);
    firstAt.set(id, i);
  }
  return { pets: pets as Pet[], ...(s.nextId !== undefined ? { nextId: s.nextId } : {}) };
}
