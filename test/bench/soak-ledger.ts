/**
 * What the soak was told was done, per workspace: every pet answered 201
 * (a PetLedger), the count left by the last acknowledged reset, load or
 * restore, and every checkpoint acknowledged and not deleted since. The
 * workspace's export must match it, whatever the load did in between.
 */
import { createHash } from 'node:crypto';
import { PetLedger, type Pet } from '../support/pet-ledger.js';

/** What went wrong in a soak, kept for its verdict. */
export class Findings {
  /** Answers a request could not get (or none at all): counted, the first ones kept. */
  unexpected = 0;
  readonly firstUnexpected: string[] = [];
  /** Acknowledged writes missing or changed. */
  readonly lost: string[] = [];
  /** Writes acknowledged (201s, resets, loads, checkpoints saved): what the ledger checks. */
  acknowledged = 0;

  noteUnexpected(what: string): void {
    this.unexpected += 1;
    if (this.firstUnexpected.length < 10) this.firstUnexpected.push(what);
  }

  noteLost(problems: string[]): void {
    if (this.lost.length < 50) this.lost.push(...problems.slice(0, 50 - this.lost.length));
  }
}

export const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

/** A workspace's pets since its last acknowledged reset, load or restore. */
export class TrackedWorkspace {
  ledger: PetLedger;
  /** Pets the last reset, load or restore left; undefined while unknown (it got no clear answer). */
  base: number | undefined;
  /** Creates sent since that got no answer: each may or may not be stored. */
  uncertain = 0;
  /** Resets, loads and restores acknowledged. */
  round = 0;

  constructor(
    readonly key: string,
    base: number,
  ) {
    this.base = base;
    this.ledger = new PetLedger(`${key}-r0`);
  }

  /** After an acknowledged reset, load or restore that left `base` pets (undefined: it may or may not have happened). */
  restart(base: number | undefined): void {
    this.round += 1;
    this.base = base;
    this.uncertain = 0;
    this.ledger = new PetLedger(`${this.key}-r${this.round}`);
  }

  /** Problems of the workspace's exported pets against what was acknowledged. */
  verify(pets: Pet[], when: string): string[] {
    if (this.base === undefined) return [];
    const problems = this.ledger.check(pets);
    const least = this.base + this.ledger.size;
    if (pets.length < least || pets.length > least + this.uncertain) {
      const range = this.uncertain > 0 ? `${least} to ${least + this.uncertain}` : String(least);
      problems.push(`${pets.length} pets stored, expected ${range} (${this.base} left by the last reset/load/restore, ${this.ledger.size} answered 201)`);
    }
    return problems.map((p) => `workspace ${this.key}, ${when}: ${p}`);
  }
}

/** A workspace that gets only creates and reads; rotated now and then (checked, then reset) so that it does not grow for the whole run. */
export class LedgerWorkspace extends TrackedWorkspace {
  private users = 0;
  private gate: Promise<void> | undefined;
  private idle: (() => void) | undefined;

  /** Runs a create or read while no rotation is under way. */
  async lease<T>(work: (ledger: PetLedger) => Promise<T>): Promise<T> {
    while (this.gate) await this.gate;
    this.users += 1;
    try {
      return await work(this.ledger);
    } finally {
      this.users -= 1;
      if (this.users === 0) this.idle?.();
    }
  }

  /** Waits until no create is in flight, then runs `step` (check and reset) while new ones wait. */
  async rotate(step: () => Promise<void>): Promise<void> {
    let release: () => void = () => undefined;
    this.gate = new Promise<void>((resolve) => (release = resolve));
    try {
      if (this.users > 0) await new Promise<void>((resolve) => (this.idle = resolve));
      this.idle = undefined;
      await step();
    } finally {
      this.gate = undefined;
      release();
    }
  }
}

/** A workspace driven by one sequence of control operations, with the checkpoints it was told were saved. */
export class ControlWorkspace extends TrackedWorkspace {
  /** Checkpoints acknowledged and not deleted: their pet count and the export's hash when saved. */
  readonly checkpoints = new Map<string, { count: number; hash: string }>();
  cycle = 0;
}
