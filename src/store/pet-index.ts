import { stringifyJson } from '../kernel/json.js';
import { petBytes } from './rules.js';
import type { Pet, PetStatus } from './types.js';
import { utf8Length } from '../kernel/json.js';

/** A page of pets as `page` gives it, its JSON text and that text's length in bytes. None may be changed. */
export interface Page {
  pets: Pet[];
  json: string;
  byteLength: number;
}

/** A pet as `text` gives it, its JSON text and that text's length in bytes. None may be changed. */
export interface PetText {
  pet: Pet;
  json: string;
  byteLength: number;
}

/** Pages kept: every status and a few limits; a client walking all 100 limits only clears it. */
const MAX_PAGES = 64;

/** Pets' texts kept per workspace: the pets read often; a client walking every id only clears it. */
const MAX_TEXTS = 4096;

/**
 * A workspace's committed pets in memory, the only thing reads see. A list
 * costs O(limit) whatever the store's size (an index by status), a get
 * O(log n) (a binary search of the pets, kept ordered by id: a Map by id
 * costs far more memory at 100,000 pets, docs/performance.md).
 */
export class PetIndex {
  private pets: Pet[] = [];
  private byStatus = new Map<PetStatus, Pet[]>();
  /** Pages of `page` with their JSON text, by status and limit, until the next change. */
  private pages = new Map<string, Page>();
  /** Pets' JSON texts by id, built on first read. A pet never changes once added, so only `reset` drops them. */
  private texts = new Map<number, PetText>();
  /** Sum of `petBytes` over the pets. */
  bytes = 0;
  /** Pets held: a field, not a getter, as every create reads it (its quota). */
  size = 0;

  /** Takes `pets` (ordered by id ascending, ids unique) as the whole content; `bytes` is their total. */
  constructor(pets: Pet[] = [], bytes = pets.reduce((n, pet) => n + petBytes(pet), 0)) {
    this.reset(pets, bytes);
  }

  /** The highest id held, or 0. */
  get lastId(): number {
    return this.pets.at(-1)?.id ?? 0;
  }

  /** All pets by id ascending. The caller must not change them. */
  all(): readonly Pet[] {
    return this.pets;
  }

  /** The first `limit` pets by id ascending, optionally only those with `status`. */
  list(limit: number, status?: PetStatus): Pet[] {
    const source = status ? (this.byStatus.get(status) ?? []) : this.pets;
    return source.slice(0, limit);
  }

  /**
   * `list` with its JSON text, kept until the next change, so repeated reads
   * of the same page (the usual traffic of a sandbox) serialize nothing.
   */
  page(limit: number, status?: PetStatus): Page {
    const key = `${status ?? ''}:${limit}`;
    let page = this.pages.get(key);
    if (!page) {
      const pets = this.list(limit, status);
      const json = stringifyJson(pets);
      page = { pets, json, byteLength: utf8Length(json) };
      if (this.pages.size >= MAX_PAGES) this.pages.clear();
      this.pages.set(key, page);
    }
    return page;
  }

  /**
   * `get` with its JSON text, kept until the next reset, so repeated reads
   * of the same pet (as of the same page) serialize nothing. A missing id is
   * not kept: the next create may add it.
   */
  text(id: number): PetText | undefined {
    let text = this.texts.get(id);
    if (text) return text;
    const pet = this.get(id);
    if (!pet) return undefined;
    const json = stringifyJson(pet);
    text = { pet, json, byteLength: utf8Length(json) };
    if (this.texts.size >= MAX_TEXTS) this.texts.clear();
    this.texts.set(id, text);
    return text;
  }

  get(id: number): Pet | undefined {
    const pets = this.pets;
    let lo = 0;
    let hi = pets.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const pet = pets[mid] as Pet;
      if (pet.id === id) return pet;
      if (pet.id < id) lo = mid + 1;
      else hi = mid - 1;
    }
    return undefined;
  }

  /** Adds a pet whose id is above every id held. */
  add(pet: Pet, bytes: number): void {
    this.pets.push(pet);
    this.size = this.pets.length;
    this.indexStatus(pet);
    this.bytes += bytes;
    this.pages.clear();
  }

  /** Replaces the whole content. */
  reset(pets: Pet[], bytes: number): void {
    this.pets = pets;
    this.size = pets.length;
    this.bytes = bytes;
    this.byStatus = new Map();
    for (const pet of pets) this.indexStatus(pet);
    this.pages.clear();
    this.texts.clear();
  }

  private indexStatus(pet: Pet): void {
    if (!pet.status) return;
    const list = this.byStatus.get(pet.status);
    if (list) list.push(pet);
    else this.byStatus.set(pet.status, [pet]);
  }
}
