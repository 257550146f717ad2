import { stringifyJson } from '../kernel/exact-json.js';
import { StoreFailure } from '../kernel/store-errors.js';
import { nextIdAfterLoad } from './ids.js';
import { buildPet, petBytes, quotaProblem, type Quota } from './pet-index.js';
import { generatePets } from './seed.js';
import type { NewPet, Pet } from './types.js';
import { utf8Length } from '../kernel/exact-json.js';

/**
 * The rules a workspace keeps whatever keeps its pets (the file and the
 * memory stores), with their messages: quotas, clashes of a load, a load's
 * totals. Ids are `ids.ts`'s.
 */

/** A create waiting for its batch: the pet with the id it will get if every batch before it succeeds (`takeIds`). */
export interface PendingCreate {
  input: NewPet;
  pet: Pet;
  json: string;
  /** Bytes counted against the quota while the create waits. */
  reserved: number;
}

/**
 * A create about to be stored, with the id it gets if every create before it
 * succeeds (taken with `takeIds`). Refused (StoreFailure) when the
 * workspace, counting what waits, would pass its quota.
 */
export function prepareCreate(input: NewPet, provisionalId: number, held: { pets: number; bytes: number }, quota: Quota | undefined): PendingCreate {
  const pet = buildPet(provisionalId, input);
  const json = stringifyJson(pet);
  const bytes = utf8Length(json);
  const problem = quotaProblem(quota, held.pets + 1, held.bytes + bytes);
  if (problem) throw quotaRefusal(problem, 'stored');
  return { input, pet, json, reserved: bytes };
}

/** A write refused by the workspace's quota (`problem`, from `quotaProblem`): a create ('stored') or a reset or load ('loaded'). */
export const quotaRefusal = (problem: string, what: 'stored' | 'loaded'): StoreFailure => new StoreFailure('quota_exceeded', `${problem} Nothing was ${what}.`);

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
