import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../src/config/paths.js';

/** Where every consumer's pact file with this service lives; all of them are verified. */
export const PACTS_DIR = `${join(PACKAGE_ROOT, 'contracts', 'pacts')}/`;

/** The provider name pact files must use to be verified against this service. */
export const PROVIDER = 'pet-store-api';

/** The pact files in `dir` (`*.json`), sorted. */
export function listPactFiles(dir = PACTS_DIR): string[] {
  return readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => join(dir, name));
}

interface PactRequest {
  method?: string;
  path?: string;
  /** V3/V4: values as arrays; V2: a query string. */
  query?: string | Record<string, string | string[]>;
  headers?: Record<string, string | string[]>;
  /** V4: `{content}`; V2/V3: the body itself. */
  body?: unknown;
}

interface PactFile {
  consumer?: { name?: string };
  provider?: { name?: string };
  interactions?: { description?: string; providerStates?: { name?: string }[]; providerState?: string; request?: PactRequest }[];
}

/** An interaction of a pact file, as a report shows it. */
export interface PactInteraction {
  consumer: string;
  description: string;
  providerStates: string[];
  request: { method: string; url: string; headers?: Record<string, string | string[]>; body?: string };
}

function queryString(query: PactRequest['query']): string {
  if (!query) return '';
  if (typeof query === 'string') return query ? `?${query}` : '';
  const params = new URLSearchParams();
  for (const [name, values] of Object.entries(query)) for (const value of [values].flat()) params.append(name, value);
  const text = params.toString();
  return text ? `?${text}` : '';
}

function bodyText(body: unknown): string | undefined {
  const content = body && typeof body === 'object' && 'content' in body ? (body as { content: unknown }).content : body;
  if (content === undefined) return undefined;
  return typeof content === 'string' ? content : JSON.stringify(content);
}

/** Every interaction of the pact files, in file order, with the request each one sends. */
export function listInteractions(files: readonly string[]): PactInteraction[] {
  return files.flatMap((file) => {
    const pact = JSON.parse(readFileSync(file, 'utf8')) as PactFile;
    return (pact.interactions ?? []).map((interaction) => ({
      consumer: pact.consumer?.name ?? '?',
      description: interaction.description ?? '?',
      providerStates: [
        ...(interaction.providerStates ?? []).map((state) => state.name ?? ''),
        ...(interaction.providerState ? [interaction.providerState] : []),
      ],
      request: {
        method: interaction.request?.method ?? 'GET',
        url: `${interaction.request?.path ?? '/'}${queryString(interaction.request?.query)}`,
        headers: interaction.request?.headers,
        body: bodyText(interaction.request?.body),
      },
    }));
  });
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
