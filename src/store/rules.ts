/**
 * The rules of a create that every store keeps: ids, quotas and a pet's
 * shape, with their messages. The loads' rules build on them
 * (`load-rules.ts`).
 *
 * The id rule. A workspace's ids count up from its next id, one per create
 * in arrival order, and are never given twice; none passes MAX_ID; a reset
 * or load sets the next id to at least one past the highest id it holds; an
 * id adds its decimal digits to the workspace's byte quota (a pet's JSON
 * text holds its id as a number).
 *
 * The rule is written once, over `IdMath`: the numbers a store decides
 * with. The file and memory stores decide in this process, with
 * JavaScript's numbers (`takeIds` and the functions after it). PostgreSQL's
 * instances share a workspace, so there the database decides, atomically,
 * in the one statement that stores the pets: the same rule, spelled in SQL
 * (`postgres/id-sql.ts`), not a second one written beside it.
 */
import { stringifyJson } from '../kernel/json.js';
import { StoreFailure } from '../kernel/store-errors.js';
import { utf8Length } from '../kernel/json.js';
import type { NewPet, Pet } from './types.js';

/** The largest id: the next id after it must still be exact in JSON (2^53 - 1). */
export const MAX_ID = Number.MAX_SAFE_INTEGER - 1;

/** The arithmetic the rule is written in: numbers `N` and truths `B`, JavaScript's or SQL's. */
export interface IdMath<N, B> {
  int(n: number): N;
  plus(a: N, b: N): N;
  minus(a: N, b: N): N;
  atMost(a: N, b: N): B;
  /** `f` of each id from `first` to `last`, summed. */
  sum(first: N, last: N, f: (id: N) => N): N;
  /** The characters of an id written in decimal. */
  digits(id: N): N;
}

/** The ids a batch of creates took: `first` to `last`, in arrival order, and whether they all `fit` (none past MAX_ID). */
export interface IdBlock<N, B> {
  first: N;
  last: N;
  fits: B;
}

/** The rule, in any `IdMath`. */
export const idRule = {
  /** A workspace's next id once `count` creates took their ids from `next`: none given twice, none skipped. */
  advance: <N, B>(m: IdMath<N, B>, next: N, count: N): N => m.plus(next, count),

  /**
   * The ids `count` creates took from a workspace whose next id they moved
   * to `after`: those just below it, in arrival order. Known from the next
   * id left rather than the one before, as a statement that moves it sees
   * it once moved (PostgreSQL's `RETURNING`).
   */
  below<N, B>(m: IdMath<N, B>, after: N, count: N): IdBlock<N, B> {
    const last = m.minus(after, m.int(1));
    return { first: m.minus(after, count), last, fits: m.atMost(last, m.int(MAX_ID)) };
  },

  /** The id of the create `i` places (from 0) into a block whose first id is `first`. */
  nth: <N, B>(m: IdMath<N, B>, first: N, i: N): N => m.plus(first, i),

  /** The bytes the ids `first` to `last` add to their workspace's byte quota. */
  bytes: <N, B>(m: IdMath<N, B>, first: N, last: N): N => m.sum(first, last, (id) => m.digits(id)),
};

/** JavaScript's numbers: the stores that decide in this process. */
const NUMBERS: IdMath<number, boolean> = {
  int: (n) => n,
  plus: (a, b) => a + b,
  minus: (a, b) => a - b,
  atMost: (a, b) => a <= b,
  sum: (first, last, f) => {
    let total = 0;
    for (let id = first; id <= last; id++) total += f(id);
    return total;
  },
  digits: (id) => String(id).length,
};

/** A create refused because the id after the last one given would pass MAX_ID. */
export const noIdsLeft = (): StoreFailure =>
  new StoreFailure('invalid_request', `No ids left: the last id, ${MAX_ID}, is taken. Reset the workspace or load pets with lower ids.`);

/** The ids `count` creates take from a workspace whose next id is `next` (`first` to `last`), and its next id `after` them. */
export interface IdsTaken {
  first: number;
  last: number;
  after: number;
}

/** The ids `count` creates take from a workspace whose next id is `next`; refused (`noIdsLeft`) when one would pass MAX_ID. */
export function takeIds(next: number, count: number): IdsTaken {
  const after = idRule.advance(NUMBERS, next, count);
  const { first, last, fits } = idRule.below(NUMBERS, after, count);
  if (!fits) throw noIdsLeft();
  return { first, last, after };
}

/** The id of the create `i` places (from 0) into a block whose first id is `first`. */
export const idAt = (first: number, i: number): number => idRule.nth(NUMBERS, first, i);

/** The next id once `id` is given: after a create's record is replayed, say. */
export const idAfter = (id: number): number => idRule.advance(NUMBERS, id, 1);

/** The bytes `id` adds to its workspace's byte quota. */
export const idBytes = (id: number): number => idRule.bytes(NUMBERS, id, id);

/**
 * A workspace's next id after a reset or load: at least `asked` (the fixture
 * set's `nextId`) and `held` (the next id before it, kept by an append; 0
 * for a reset or replace), and past `highest`, the highest id it then holds.
 */
export function nextIdAfterLoad(held: number, asked: number | undefined, highest: number): number {
  return Math.max(asked ?? 0, held, idAfter(highest));
}

/** `{id, name, categoryId, status?}`, in that key order, without a status key when none is given. */
export function buildPet(id: number, input: NewPet): Pet {
  const pet: Pet = { id, name: input.name, categoryId: input.categoryId };
  if (input.status !== undefined) pet.status = input.status;
  return pet;
}

/** Bytes a pet takes in the store's accounting (quotas): its JSON text in UTF-8. */
export const petBytes = (pet: Pet): number => utf8Length(stringifyJson(pet));

/** Most pets and most bytes of pet JSON a workspace may hold. */
export interface Quota {
  pets: number;
  bytes: number;
}

/** What a workspace of `pets` pets and `bytes` bytes would break of its quota, if anything. */
export function quotaProblem(quota: Quota | undefined, pets: number, bytes: number): string | undefined {
  if (!quota) return undefined;
  if (pets > quota.pets) return `The workspace holds its quota of ${quota.pets} pets (--quota-pets).`;
  if (bytes > quota.bytes) return `The workspace would exceed its quota of ${quota.bytes} bytes of pet data (--quota-bytes).`;
  return undefined;
}

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
