/**
 * What a power-cut test has had acknowledged by one sandbox, and the check
 * of what a restart finds against it: every acknowledged pet, reset, load
 * and checkpoint there, no id reused. An operation in flight at the cut may
 * have happened or not; either outcome is accepted, nothing in between.
 */
import { generatePets } from '../../src/store/seed.js';
import { controlOfChild, createPet, DEFAULT_KEY, exportWorkspace } from './ledger-calls.js';
import type { CallResult } from './harness.js';
import { describePet, PetLedger, type Pet } from './pet-ledger.js';

/** A state the workspace can be in: the pets the last reset or load put there, then the ledger's creates. */
interface Generation {
  ledger: PetLedger;
  base: Pet[];
}

interface Checkpoint {
  name: string;
  count: number;
  nextId: number;
  bytes: number;
}

const canonical = (pet: Pet) => JSON.stringify(Object.entries(pet).sort(([a], [b]) => a.localeCompare(b)));

/** The problems of `pets` as the state `generation` (at most 20). */
function problemsAs(pets: Pet[], generation: Generation): string[] {
  const base = new Map(generation.base.map((pet) => [pet.id, canonical(pet)]));
  const problems: string[] = [];
  const created: Pet[] = [];
  for (const pet of pets) {
    if (base.get(pet.id) === canonical(pet)) base.delete(pet.id);
    else if (generation.ledger.owns(pet)) created.push(pet);
    else problems.push(`unexpected pet ${describePet(pet)} (not of ${generation.ledger.prefix})`);
  }
  for (const id of base.keys()) problems.push(`pet ${id} of the last reset or load is missing`);
  return [...problems, ...generation.ledger.check(created)].slice(0, 20);
}

/** One workspace's acknowledged history across power cuts. */
export class World {
  private generations = 0;
  private now: Generation;
  /** A reset or load sent but not answered when the power went. */
  private pending: Generation | undefined;
  private readonly checkpoints = new Map<string, Checkpoint>();
  private pendingCheckpoint: string | undefined;

  /** A fresh sandbox started with `--seed`, `--count`. */
  constructor(seed: number, count: number) {
    this.now = { ledger: this.newLedger(), base: generatePets(seed, count) as Pet[] };
  }

  /** The ledger of creates now. */
  get ledger(): PetLedger {
    return this.now.ledger;
  }

  private newLedger(): PetLedger {
    return new PetLedger(`g${(this.generations += 1)}`);
  }

  /** `concurrency` writers create until `count` pets were sent or the sandbox is gone; each 201 is checked and recorded. */
  async create(origin: string, count: number, concurrency: number): Promise<void> {
    let left = count;
    const writer = async () => {
      while (left > 0) {
        left -= 1;
        const outcome = await createPet(origin, DEFAULT_KEY, this.now.ledger).catch((error: unknown) => error);
        if (outcome instanceof Error && outcome.name !== 'AssertionError') return; // The power went: unknown, never recorded.
        if (outcome instanceof Error) throw outcome;
      }
    };
    await Promise.all(Array.from({ length: concurrency }, writer));
  }

  /**
   * POST /reset, or /load with `pets`: in flight until answered 200, then
   * the new generation. Any other answer is returned (and the operation
   * stays in flight: it may have happened).
   */
  async replace(origin: string, how: { reset: { seed: number; count: number } } | { load: Pet[] }, allowed = [200]): Promise<CallResult | undefined> {
    const next = { ledger: this.newLedger(), base: 'reset' in how ? (generatePets(how.reset.seed, how.reset.count) as Pet[]) : how.load };
    this.pending = next;
    const [path, json] = 'reset' in how ? ['/reset', how.reset] : ['/load', { pets: how.load, mode: 'replace' }];
    const res = await controlOfChild(origin)('POST', path, { json }).catch(() => undefined);
    if (!res) return undefined;
    if (!allowed.includes(res.status)) throw new Error(`POST ${path} answered ${res.status}: ${res.text}`);
    if (res.status === 200) this.adoptPending();
    return res;
  }

  /** The reset or load in flight happened, and is acknowledged from now on. */
  adoptPending(): void {
    if (this.pending) this.now = this.pending;
    this.pending = undefined;
  }

  /** POST /checkpoints `name`: in flight until answered, then expected after every restart. */
  async saveCheckpoint(origin: string, name: string): Promise<void> {
    this.pendingCheckpoint = name;
    const res = await controlOfChild(origin)('POST', '/checkpoints', { json: { name } }).catch(() => undefined);
    if (!res) return;
    if (res.status !== 201) throw new Error(`POST /checkpoints answered ${res.status}: ${res.text}`);
    const { count, nextId, bytes } = res.body as Checkpoint;
    this.checkpoints.set(name, { name, count, nextId, bytes });
    this.pendingCheckpoint = undefined;
  }

  /**
   * The problems of a restarted sandbox: its pets are the acknowledged state
   * (or, with a reset or load in flight, the state after it), its
   * checkpoints those acknowledged (plus, perhaps, the one in flight), and a
   * new pet gets an id never acknowledged before. Settles what was in flight.
   */
  async check(origin: string): Promise<string[]> {
    const { pets } = await exportWorkspace(origin);
    let problems = problemsAs(pets, this.now);
    if (problems.length > 0 && this.pending && problemsAs(pets, this.pending).length === 0) [this.now, problems] = [this.pending, []];
    this.pending = undefined;
    problems.push(...(await this.checkpointProblems(origin)));
    const highest = Math.max(0, ...pets.map((p) => p.id));
    // The ledger refuses an id it acknowledged before: that assertion is a problem to report; no answer (a cut) is thrown.
    const res = await createPet(origin, DEFAULT_KEY, this.now.ledger).catch((error: Error) => {
      if (error.name !== 'AssertionError') throw error;
      return error;
    });
    if (res instanceof Error) problems.push(`a create after the restart: ${res.message}`);
    else if (res.status !== 201 || (res.body as Pet).id <= highest)
      problems.push(`a create after the restart answered ${res.status} with id ${(res.body as Pet).id}, not above ${highest}`);
    return problems;
  }

  private async checkpointProblems(origin: string): Promise<string[]> {
    const res = await controlOfChild(origin)('GET', '/checkpoints');
    const listed = new Map((res.body as { checkpoints: Checkpoint[] }).checkpoints.map((c) => [c.name, c]));
    const problems: string[] = [];
    for (const [name, saved] of this.checkpoints) {
      const found = listed.get(name);
      if (!found) problems.push(`checkpoint ${name} was answered 201 and is missing`);
      else if (found.count !== saved.count || found.nextId !== saved.nextId || found.bytes !== saved.bytes)
        problems.push(`checkpoint ${name} was saved as ${JSON.stringify(saved)}, is now ${JSON.stringify(found)}`);
    }
    const pending = this.pendingCheckpoint && listed.get(this.pendingCheckpoint);
    if (pending) this.checkpoints.set(pending.name, { name: pending.name, count: pending.count, nextId: pending.nextId, bytes: pending.bytes });
    this.pendingCheckpoint = undefined;
    for (const name of listed.keys()) if (!this.checkpoints.has(name)) problems.push(`checkpoint ${name} was never saved`);
    return problems;
  }
}
