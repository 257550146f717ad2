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
      const { text, commit } = this.prepareCreate(input);
      commit();
      this.writes.settled('create', start);
      return Promise.resolve(text);
    } catch (error) {
      this.writes.settled('create', start, true, error);
      return Promise.reject(error as Error);
    }
  }

  /**
   * A create checked and made, not yet applied: `commit` adds the pet. For a
   * store that writes it elsewhere first (IndexedDB), so it is visible only
   * once stored; no other write may come between. Throws a StoreFailure.
   */
  prepareCreate(input: NewPet): { text: PetText; nextId: number; commit: () => void } {
    const ids = takeIds(this.nextId, 1);
    const { pet, json, reserved } = prepareCreate(input, ids.first, { pets: this.index.size, bytes: this.index.bytes }, this.quota);
    const commit = () => {
      this.index.add(pet, reserved);
      this.nextId = ids.after;
    };
    return { text: { pet, json, byteLength: reserved }, nextId: ids.after, commit };
  }

  replace(pets: readonly Pet[], nextId?: number): Promise<void> {
    return this.writes.time('replace', () => atOnce(() => this.adopt(this.replacement(pets, nextId))));
  }

  append(pets: readonly Pet[], nextId?: number): Promise<void> {
    return this.writes.time('append', () => atOnce(() => this.adopt(this.appended(pets, nextId))));
  }

  /** The content a replace gives, checked (a StoreFailure thrown), not applied. */
  replacement(pets: readonly Pet[], nextId?: number): Generation {
    return nextGeneration(pets, nextId, this.quota);
  }

  /** The content an append gives, checked (a clash or the quota thrown), not applied; it keeps at least the next id held. */
  appended(pets: readonly Pet[], nextId?: number): Generation {
    const clash = appendClash((id) => this.index.get(id) !== undefined, pets);
    if (clash) throw clash;
    return nextGeneration([...this.index.all(), ...pets], nextId, this.quota, this.nextId);
  }

  /** Makes `generation` the content, at once. */
  adopt(generation: Generation): void {
    this.index.reset(generation.pets, generation.bytes);
    this.nextId = generation.nextId;
  }

  summary(): Summary {
    return { count: this.index.size, nextId: this.nextId };
  }

  /** Every pet, by id. */
  pets(): readonly Pet[] {
    return this.index.all();
  }

  exportPieces(): Iterable<string> {
    return exportJson(this.index.all(), this.nextId);
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
