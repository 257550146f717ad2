import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where every consumer's pact file with this service lives; all of them are verified. */
export const PACTS_DIR = fileURLToPath(new URL('./pacts/', import.meta.url));

/** The provider name pact files must use to be verified against this service. */
export const PROVIDER = 'pet-store-api';

/** The pact files in `dir` (`*.json`), sorted. */
export function listPactFiles(dir = PACTS_DIR): string[] {
  return readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => join(dir, name));
}

interface PactFile {
  consumer?: { name?: string };
  provider?: { name?: string };
  interactions?: { description?: string; providerStates?: { name?: string }[]; providerState?: string }[];
}

/** What the pact files hold: consumers, interactions and the provider states they need. */
export function describePacts(files: readonly string[]): { consumers: string[]; interactions: number; states: string[]; wrongProvider: string[] } {
  const consumers: string[] = [];
  const states = new Set<string>();
  const wrongProvider: string[] = [];
  let interactions = 0;
  for (const file of files) {
    const pact = JSON.parse(readFileSync(file, 'utf8')) as PactFile;
    consumers.push(pact.consumer?.name ?? '?');
    if (pact.provider?.name !== PROVIDER) wrongProvider.push(`${file} (provider '${pact.provider?.name}')`);
    for (const interaction of pact.interactions ?? []) {
      interactions++;
      for (const state of interaction.providerStates ?? []) if (state.name) states.add(state.name);
      if (interaction.providerState) states.add(interaction.providerState);
    }
  }
  return { consumers, interactions, states: [...states].sort(), wrongProvider };
}

/** A pact file's JSON, as far as comparing two of them needs. */
interface PactJson {
  interactions?: { description?: string }[];
  metadata?: Record<string, unknown>;
}

/**
 * A pact reduced to what it promises, for comparing a freshly generated one
 * with the committed one. Dropped: the versions of the Pact libraries that
 * wrote it (`metadata["pact-js"]`, `metadata.pactRust`), which change with
 * every upgrade and mean nothing to a provider. Order is fixed: interactions
 * by description (Pact writes them so, but a verifier does not care), keys
 * as JSON parsing leaves them (deep equality ignores their order, as it does
 * whitespace). Everything else, the Pact specification version included,
 * must be equal.
 */
export function normalisePact(text: string): unknown {
  const pact = JSON.parse(text) as PactJson;
  const metadata = { ...pact.metadata };
  delete metadata['pact-js'];
  delete metadata.pactRust;
  const interactions = [...(pact.interactions ?? [])].sort(
    (a, b) => String(a.description).localeCompare(String(b.description)) || JSON.stringify(a).localeCompare(JSON.stringify(b)),
  );
  return { ...pact, interactions, metadata };
}
