import type { Summary, WorkspaceData } from '../backend.js';
import { exportJson } from '../export-json.js';
import { PetIndex, type Page, type PetText } from '../pet-index.js';
import { prepareCreate, takeIds, type Quota } from '../rules.js';
import { appendClash, nextGeneration, type Generation } from '../load-rules.js';
import type { NewPet, Pet, PetStatus } from '../types.js';
import type { WriteTimes } from '../write-times.js';

/**
 * One workspace kept in memory only: the file store's index of pets and the
 * rules every store shares (ids, quotas, clashes), without a file. A write
 * is applied at once, whole or not at all, and lasts as long as the process.
 */
export class MemoryWorkspace implements WorkspaceData {
  private readonly index: PetIndex;
  private nextId: number;

  constructor(
    generation: Generation,
    private readonly quota: Quota | undefined,
    private readonly writes: WriteTimes,
  ) {
    this.index = new PetIndex(generation.pets, generation.bytes);
    this.nextId = generation.nextId;
  }

  page(limit: number, status?: PetStatus): Page {
    return this.index.page(limit, status);
  }

  get(id: number): Pet | undefined {
    return this.index.get(id);
  }

  /** `get` with its JSON text, cached until the next reset or load. */
  getText(id: number): PetText | undefined {
    return this.index.text(id);
  }

  /**
   * Adds a pet with the next id, with its JSON text (the one its quota was
   * counted on); rejects with a StoreFailure when no id is left or the quota
   * would be passed.
   */
  createText(input: NewPet): Promise<PetText> {
    const start = performance.now();
    try {
      const ids = takeIds(this.nextId, 1);
      const { pet, json, reserved } = prepareCreate(input, ids.first, { pets: this.index.size, bytes: this.index.bytes }, this.quota);
      this.index.add(pet, reserved);
      this.nextId = ids.after;
      this.writes.settled('create', start);
      return Promise.resolve({ pet, json, byteLength: reserved });
    } catch (error) {
      this.writes.settled('create', start, true, error);
      return Promise.reject(error as Error);
    }
  }

  replace(pets: readonly Pet[], nextId?: number): Promise<void> {
    return this.writes.time('replace', () => atOnce(() => this.swap(pets, nextId)));
  }

  append(pets: readonly Pet[], nextId?: number): Promise<void> {
    return this.writes.time('append', () => {
      const clash = appendClash((id) => this.index.get(id) !== undefined, pets);
      if (clash) return Promise.reject(clash);
      return atOnce(() => this.swap([...this.index.all(), ...pets], nextId, this.nextId));
    });
  }

  summary(): Summary {
    return { count: this.index.size, nextId: this.nextId };
  }

  exportPieces(): Iterable<string> {
    return exportJson(this.index.all(), this.nextId);
  }

  /** The new content; an append's keeps at least the next id held (`heldNextId`). */
  private swap(pets: readonly Pet[], nextId: number | undefined, heldNextId?: number): void {
    const generation = nextGeneration(pets, nextId, this.quota, heldNextId);
    this.index.reset(generation.pets, generation.bytes);
    this.nextId = generation.nextId;
  }
}

/** `work`, done at once, as a promise: resolved, or rejected with what it threw. */
function atOnce(work: () => void): Promise<void> {
  try {
    work();
    return Promise.resolve();
  } catch (error) {
    return Promise.reject(error as Error);
  }
}
