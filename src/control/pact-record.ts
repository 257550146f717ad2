/**
 * A consumer's pact, recorded from what it really sent: a workspace's
 * journal turned into a Pact specification V4 file for the provider
 * `pet-store-api`, one interaction per distinct operation, status and
 * request shape (the first one seen of each).
 */
import type { JournalEntry } from '../store/journal/types.js';
import { recordInteraction, type PactInteraction } from './pact-interaction.js';

/** The provider name every pact with this service uses. */
export const PACT_PROVIDER = 'pet-store-api';

export interface PactFile {
  consumer: { name: string };
  provider: { name: string };
  interactions: PactInteraction[];
  metadata: { pactSpecification: { version: '4.0' }; 'petstore-sandbox': { version: string } };
}

export interface RecordOptions {
  consumer: string;
  /** The workspace's journal, oldest first. */
  entries: readonly JournalEntry[];
  /** Requests without a valid key (the unauthenticated journal), for the 401s; none by default. */
  unauthenticated?: readonly JournalEntry[];
  /** The sandbox's version, written into the metadata. */
  version: string;
}

/** The pact of `consumer` from journal entries; interactions sorted by description, so the same traffic gives the same file. */
export function recordPact(options: RecordOptions): PactFile {
  const seen = new Map<string, PactInteraction>();
  const add = (entries: readonly JournalEntry[], authenticated: boolean) => {
    for (const entry of entries) {
      const recorded = recordInteraction(entry, authenticated);
      if (recorded && !seen.has(recorded.shape)) seen.set(recorded.shape, recorded.interaction);
    }
  };
  add(options.entries, true);
  add(options.unauthenticated ?? [], false);
  const interactions = [...seen.values()].sort((a, b) => a.description.localeCompare(b.description));
  // Pact tells interactions apart by description (and states): two shapes written alike get a number.
  const used = new Map<string, number>();
  for (const interaction of interactions) {
    const n = (used.get(interaction.description) ?? 0) + 1;
    used.set(interaction.description, n);
    if (n > 1) interaction.description += ` (${n})`;
  }
  return {
    consumer: { name: options.consumer },
    provider: { name: PACT_PROVIDER },
    interactions,
    metadata: { pactSpecification: { version: '4.0' }, 'petstore-sandbox': { version: options.version } },
  };
}
