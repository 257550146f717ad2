import { ApiError } from '../kernel/errors.js';
import type { WorkspaceData } from '../store/backend.js';
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
  if (!Number.isSafeInteger(o.count) || (o.count as number) < 0 || (o.count as number) > 1_000_000)
    throw ApiError.of('invalid_request', '"count" must be an integer from 0 to 1000000.');
  if (o.empty !== undefined && typeof o.empty !== 'boolean') throw ApiError.of('invalid_request', '"empty" must be true or false.');
  return { seed: o.seed as number, count: o.count as number, ...(o.empty !== undefined ? { empty: o.empty as boolean } : {}) };
}

/** What a reset writes: generated pets (ids from 1), or none; made before anything is written. */
export function resetSet(o: ResetOptions): { pets: Pet[]; nextId?: number } {
  return o.empty ? { pets: [], nextId: 1 } : { pets: generatePets(o.seed, o.count) };
}

/** Back to a fresh sandbox's state: generated pets (ids from 1), or none. */
export function resetWorkspace(store: WorkspaceData, o: ResetOptions): Promise<void> {
  const { pets, nextId } = resetSet(o);
  return store.replace(pets, nextId);
}

/** Loads validated pets: `replace` everything, or `append` them (no id may clash). */
export function loadWorkspace(store: WorkspaceData, pets: Pet[], nextId: number | undefined, mode: 'replace' | 'append'): Promise<void> {
  return mode === 'replace' ? store.replace(pets, nextId) : store.append(pets, nextId);
}
