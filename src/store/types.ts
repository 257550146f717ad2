import type { components } from '../openapi/schema.js';

export type Pet = components['schemas']['Pet'];
export type NewPet = components['schemas']['NewPet'];
export type PetStatus = components['schemas']['PetStatus'];

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

export { StoreError } from './errors.js';
