import { StoreFailure } from '../kernel/store-errors.js';
import { nextIdAfterLoad, petBytes, quotaProblem, quotaRefusal, type Quota } from './rules.js';
import { generatePets } from './seed.js';
import type { Pet } from './types.js';

/**
 * The rules of a reset and a load every store keeps (the file, memory and
 * PostgreSQL stores), with their messages: append clashes, a load's totals
 * within the quota, the next id after it, a new workspace's seeded content.
 */

/**
 * A fixture load with `append` that names an id already stored (`stored`
 * says whether one is): refused whole.
 */
export function appendClash(stored: (id: number) => boolean, pets: readonly Pet[]): StoreFailure | undefined {
  const clash = pets.find((p) => stored(p.id));
  return clash && new StoreFailure('invalid_request', `Nothing was loaded. A pet with id ${clash.id} is already stored; use "mode": "replace" or other ids.`);
}

/** A workspace's new content (reset, load): its pets by id, their bytes, and its next id. */
export interface Generation {
  pets: Pet[];
  bytes: number;
  nextId: number;
}

/** What a workspace holds, in numbers: its pets, their bytes, and its next id. */
export interface Totals {
  count: number;
  bytes: number;
  nextId: number;
}

/** An empty workspace's totals: what a reset starts from. */
export const EMPTY: Totals = { count: 0, bytes: 0, nextId: 0 };

/**
 * The totals a load of `pets` gives a workspace that holds `held` (EMPTY
 * for a reset, whose pets replace all): within the quota (else a
 * StoreFailure, nothing loaded), and the next id (`nextIdAfterLoad`): at
 * least `nextId` and the one held, and past the highest id loaded. A store
 * that keeps its pets elsewhere (PostgreSQL) needs only these numbers.
 */
export function loadTotals(held: Totals, pets: readonly Pet[], nextId: number | undefined, quota: Quota | undefined): Totals {
  let bytes = held.bytes;
  let highest = 0;
  for (const pet of pets) {
    bytes += petBytes(pet);
    if (pet.id > highest) highest = pet.id;
  }
  const count = held.count + pets.length;
  const problem = quotaProblem(quota, count, bytes);
  if (problem) throw quotaRefusal(problem, 'loaded');
  return { count, bytes, nextId: nextIdAfterLoad(held.nextId, nextId, highest) };
}

/**
 * The content a reset or load gives a workspace: pets sorted by id, within
 * the quota (else a StoreFailure, nothing loaded), and the next id: at least
 * `nextId` and `heldNextId` (an append's: the next id it keeps), and past
 * the highest id (`loadTotals`).
 */
export function nextGeneration(pets: readonly Pet[], nextId: number | undefined, quota: Quota | undefined, heldNextId = EMPTY.nextId): Generation {
  const sorted = [...pets].sort((a, b) => a.id - b.id);
  const totals = loadTotals({ ...EMPTY, nextId: heldNextId }, sorted, nextId, quota);
  return { pets: sorted, bytes: totals.bytes, nextId: totals.nextId };
}

/**
 * A new workspace's content, the same on every store: `count` pets made
 * from `seed` (ids 1 to `count`), and the next id after them. A seed is the
 * operator's choice, so it is not held to the quota.
 */
export const seededGeneration = ({ seed, count }: { seed: number; count: number }): Generation =>
  nextGeneration(generatePets(seed, count), undefined, undefined);
