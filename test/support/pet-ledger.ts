/**
 * What a test sent to one workspace and what the sandbox answered, kept
 * small enough for pets with 4 MiB names (a digest per pet, not the pet):
 * the bookkeeping behind "every pet answered 201 is present field for field,
 * no id names two pets, nothing answered non-201 is present".
 */
import { createHash } from 'node:crypto';

export interface Pet {
  id: number;
  name: string;
  categoryId: number;
  status?: string;
}

export type NewPet = Omit<Pet, 'id'>;

const STATUSES = ['available', 'pending', 'sold', undefined] as const;

/** A pet's fields in a fixed order, hashed: equal digests mean equal pets, field for field. */
function digest(pet: Pet): string {
  return createHash('sha256')
    .update(JSON.stringify([pet.id, pet.name, pet.categoryId, pet.status ?? null, Object.keys(pet).sort()]))
    .digest('hex');
}

/** A pet for messages: a long name is cut. */
export function describePet(pet: Partial<Pet> | undefined): string {
  if (!pet) return 'nothing';
  const name = typeof pet.name === 'string' && pet.name.length > 40 ? `${pet.name.slice(0, 40)}... (${pet.name.length} chars)` : pet.name;
  return JSON.stringify({ ...pet, name });
}

export class PetLedger {
  private readonly acked = new Map<number, { digest: string; tag: string }>();
  private readonly ackedTags = new Set<string>();
  private readonly rejected = new Set<string>();
  private readonly tagPattern: RegExp;
  private sent = 0;

  /** `prefix`: letters, digits and `-` only; unique among the ledgers of one workspace. */
  constructor(readonly prefix: string) {
    this.tagPattern = new RegExp(`^(${prefix}\\.\\d+)~`);
  }

  /** Pets answered 201 so far. */
  get size(): number {
    return this.acked.size;
  }

  /** A new pet to send: its name starts with a unique tag (`<prefix>.<n>~`) and is padded to `nameLength` characters. */
  next(nameLength = 0): NewPet {
    this.sent += 1;
    const head = `${this.prefix}.${this.sent}~ "quoted" ✓ `;
    const status = STATUSES[this.sent % STATUSES.length];
    return { name: head.padEnd(nameLength, 'x'), categoryId: this.sent, ...(status ? { status } : {}) };
  }

  /** Records a 201: the answer must be what was sent plus a fresh id. Returns a problem, if any. */
  acknowledge(sent: NewPet, answer: unknown): string | undefined {
    const pet = answer as Pet;
    const expected: Pet = { id: pet?.id, ...sent };
    if (!Number.isSafeInteger(pet?.id) || digest(pet) !== digest(expected)) return `201 with ${describePet(pet)} for ${describePet(sent)}`;
    if (this.acked.has(pet.id)) return `id ${pet.id} answered 201 twice`;
    const tag = this.tagOf(sent.name) as string;
    this.acked.set(pet.id, { digest: digest(pet), tag });
    this.ackedTags.add(tag);
    return undefined;
  }

  /** Records an answer other than 201: that pet must never be stored. */
  reject(sent: NewPet): void {
    this.rejected.add(this.tagOf(sent.name) as string);
  }

  /** Whether `pet` is one this ledger sent. */
  owns(pet: Pet): boolean {
    return this.tagOf(pet.name) !== undefined;
  }

  /**
   * Problems of a workspace's pets (an export or a list) against the
   * ledger: ids unique, every acknowledged pet present and equal (unless
   * `partial`, for a list of the first pets only), no pet of this ledger that
   * was not acknowledged, none twice. At most 20 problems.
   */
  check(pets: Pet[], partial = false): string[] {
    const problems: string[] = [];
    const ids = new Set<number>();
    const tags = new Set<string>();
    for (const pet of pets) {
      if (ids.has(pet.id)) problems.push(`id ${pet.id} names two pets`);
      ids.add(pet.id);
      const tag = this.tagOf(pet.name);
      if (tag === undefined) continue;
      if (tags.has(tag)) problems.push(`${tag} is stored twice (id ${pet.id})`);
      tags.add(tag);
      if (this.rejected.has(tag)) problems.push(`${tag} was answered non-201 but is stored: ${describePet(pet)}`);
      const ack = this.acked.get(pet.id);
      if (ack && ack.digest !== digest(pet)) problems.push(`id ${pet.id} acknowledged as ${ack.tag}, now ${describePet(pet)}`);
      if (!ack && this.ackedTags.has(tag)) problems.push(`${tag} is stored under id ${pet.id}, not the id it was acknowledged with`);
    }
    if (!partial) for (const [id, ack] of this.acked) if (!ids.has(id)) problems.push(`id ${id} (${ack.tag}) was answered 201 and is missing`);
    return problems.slice(0, 20);
  }

  private tagOf(name: string): string | undefined {
    return this.tagPattern.exec(name)?.[1];
  }
}
