import type { components } from '../openapi/schema.js';

type Schemas = components['schemas'];

/**
 * An int64 of the interface (a pet's `categoryId`) as held in memory: a
 * `number` when it is a safe integer (within ±(2^53-1), every value an
 * ordinary client sends), a `bigint` only beyond that, where a double would
 * round it. The form is canonical (a value that fits a number is never a
 * bigint), so two equal values are held alike.
 *
 * Parsed from JSON text by `parseJson` and written by `stringifyJson`
 * (`src/core/exact-json.ts`), which writes a bigint as a bare integer literal:
 * `{"id":1,"name":"Rex","categoryId":9223372036854775807}`. That one
 * function makes a pet's JSON text wherever it is kept or sent: the commit
 * log's records, the snapshot's lines, cached pages, exports, response
 * bodies, the journal and recorded pacts; a backend that stores a pet's JSON
 * text (PostgreSQL) stores `stringifyJson(pet)`, and reads it back with
 * `parseJson`. Plain `JSON.parse`/`JSON.stringify` must never see a pet:
 * the first rounds such a value, the second throws on it.
 *
 * Ids stay numbers: the service assigns them, up to `MAX_ID` (2^53 - 2).
 */
export type Int64 = number | bigint;

export type Pet = Omit<Schemas['Pet'], 'categoryId'> & { categoryId: Int64 };
export type NewPet = Omit<Schemas['NewPet'], 'categoryId'> & { categoryId: Int64 };
export type PetStatus = Schemas['PetStatus'];

/** What one lowdb file holds. */
export interface StoreData {
  /** File format version, for future migrations. */
  format: 1;
  /** Bumped on every replace/reset; log records of older epochs are void. */
  epoch: number;
  /** The next id to assign: ids are never reused within an epoch. */
  nextId: number;
  /** Ordered by id ascending. */
  pets: Pet[];
}

export { StoreError } from '../kernel/store-errors.js';
