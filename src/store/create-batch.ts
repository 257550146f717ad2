import { stringifyJson } from '../exact-json.js';
import { encodeRecord } from './commit-log.js';
import { StoreFailure } from './errors.js';
import { buildPet, quotaProblem, type Quota } from './pet-index.js';
import type { NewPet, Pet } from './types.js';

/** A create waiting for its batch: the pet with the id it will get if every batch before it succeeds. */
export interface PendingCreate {
  input: NewPet;
  pet: Pet;
  json: string;
  /** Bytes counted against the quota while the create waits. */
  reserved: number;
}

/** The largest id: the next id after it must still be exact in JSON (2^53 - 1). */
export const MAX_ID = Number.MAX_SAFE_INTEGER - 1;

/**
 * A create about to wait for its batch, with the id it gets if every batch
 * before it succeeds. Refused (StoreFailure) when no id is left or the
 * workspace, counting what waits, would pass its quota.
 */
export function prepareCreate(input: NewPet, provisionalId: number, held: { pets: number; bytes: number }, quota: Quota | undefined): PendingCreate {
  if (provisionalId > MAX_ID) {
    throw new StoreFailure('invalid_request', `No ids left: the last id, ${MAX_ID}, is taken. Reset the workspace or load pets with lower ids.`);
  }
  const pet = buildPet(provisionalId, input);
  const json = stringifyJson(pet);
  const bytes = Buffer.byteLength(json);
  const problem = quotaProblem(quota, held.pets + 1, held.bytes + bytes);
  if (problem) throw new StoreFailure('quota_exceeded', `${problem} Nothing was stored.`);
  return { input, pet, json, reserved: bytes };
}

/**
 * A batch of creates as commit-log records: ids from `firstId` on, in order.
 * A pet whose provisional id is not the one it gets (an earlier batch failed,
 * and its ids were never given) is rebuilt with the right one. Returns the
 * records and the id after the last.
 */
export function encodeBatch(items: PendingCreate[], epoch: number, firstId: number): { text: string; nextId: number } {
  let id = firstId;
  let text = '';
  for (const item of items) {
    if (item.pet.id !== id) {
      item.pet = buildPet(id, item.input);
      item.json = stringifyJson(item.pet);
    }
    text += encodeRecord(`{"e":${epoch},"pet":${item.json}}`);
    id += 1;
  }
  return { text, nextId: id };
}
