import { ApiError } from '../http/errors.js';
import type { PetStore } from '../store/pet-store.js';
import { generatePets } from '../store/seed.js';
import type { Pet } from '../store/types.js';

/**
 * What the control plane does to a workspace, shared by the HTTP control
 * API and the CLI working directly on a data directory.
 */

export interface ResetOptions {
  seed: number;
  count: number;
  empty?: boolean;
}

export function checkResetOptions(o: { seed: unknown; count: unknown; empty?: unknown }): ResetOptions {
  if (!Number.isSafeInteger(o.seed) || (o.seed as number) < 0) throw ApiError.of('invalid_request', '"seed" must be a non-negative integer.');
  if (!Number.isSafeInteger(o.count) || (o.count as number) < 0 || (o.count as number) > 1_000_000) throw ApiError.of('invalid_request', '"count" must be an integer from 0 to 1000000.');
  if (o.empty !== undefined && typeof o.empty !== 'boolean') throw ApiError.of('invalid_request', '"empty" must be true or false.');
  return { seed: o.seed as number, count: o.count as number, ...(o.empty !== undefined ? { empty: o.empty as boolean } : {}) };
}

/** Back to a fresh sandbox's state: generated pets (ids from 1), or none. */
export function resetWorkspace(store: PetStore, o: ResetOptions): Promise<void> {
  return o.empty ? store.replace([], 1) : store.replace(generatePets(o.seed, o.count));
}

/** Loads validated pets: `replace` everything, or `append` them (no id may clash). */
export async function loadWorkspace(store: PetStore, pets: Pet[], nextId: number | undefined, mode: 'replace' | 'append'): Promise<void> {
  if (mode === 'replace') return store.replace(pets, nextId);
  const clash = pets.find((p) => store.get(p.id));
  if (clash) throw ApiError.of('invalid_request', `Nothing was loaded. A pet with id ${clash.id} is already stored; use "mode": "replace" or other ids.`);
  return store.replace([...store.all(), ...pets], Math.max(nextId ?? 0, store.nextId));
}

/** A workspace as a fixture set: loading it back gives the same store, and the same export, byte for byte. */
export function exportWorkspace(store: PetStore): { nextId: number; pets: readonly Pet[] } {
  return { nextId: store.nextId, pets: store.all() };
}
