import { Verifier } from '@pact-foundation/pact';
import { KNOWN_STATES, unknownStates } from '../../src/control/provider-states.js';
import { CONTROL_BASE } from '../../src/control/routes.js';
import { describePacts, listPactFiles, PROVIDER } from '../pact-files.js';
import { plural } from '../plural.js';

export interface VerifyPactsOptions {
  /** The base address ending in `/v1`; pact paths start with `/v1`. */
  target: string;
  key: string;
  /** Origin serving `/__sandbox`, where provider states are set up (`POST /__sandbox/provider-states`, with the key). */
  adminUrl: string;
  /** Default: every `*.json` in contracts/pacts. */
  pactFiles?: string[];
  logLevel?: 'error' | 'warn' | 'info' | 'debug';
  /**
   * For the APIs of loaded specs (`verify --spec`): the origin pact paths are
   * appended to (they start with each API's base path), the headers the key
   * is sent in (each spec's scheme), and pacts of any provider name.
   */
  served?: { origin: string; headers: Record<string, string> };
}

/** A control-plane call that takes longer is a failure, not a hang. */
export const CONTROL_TIMEOUT_MS = 10_000;

export interface PactSummary {
  files: string[];
  consumers: string[];
  interactions: number;
  /** The verifier's result for each interaction. */
  results: VerifierInteraction[];
}

/** One interaction's result in the verifier's JSON (pact_ffi's `pactffi_verifier_json`). */
export interface VerifierInteraction {
  consumer: string;
  description: string;
  /** e.g. `97ms`, `1s 20ms`. */
  duration?: string;
  providerStates?: string[];
  /** `OK`, or `Error` with a mismatch. */
  result: string;
  mismatch?: {
    type: string;
    message?: string;
    mismatches?: { type: string; mismatch: string; path?: string; key?: string; expected?: unknown; actual?: unknown }[];
  };
}

interface VerifierJson {
  interactionResults?: VerifierInteraction[];
  errors?: { interaction: string; mismatch?: { mismatches?: { mismatch: string; path?: string }[] } }[];
}

/** A failed verification, with each interaction's result when the verifier got as far as running them. */
export class PactFailure extends Error {
  constructor(
    message: string,
    readonly results: VerifierInteraction[],
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

/** The verifier's JSON result, which it gives as the resolved value or as a failure's message; undefined when the text holds none. */
function parseVerifierJson(text: string | undefined): VerifierJson | undefined {
  if (!text || !text.includes('{')) return undefined;
  try {
    return JSON.parse(text.slice(text.indexOf('{'))) as VerifierJson;
  } catch {
    return undefined;
  }
}

/**
 * The address pact paths are appended to: the target without its `/v1`,
 * because consumers record full paths (`/v1/pets`), as a client configured
 * with the base address sends them.
 */
export function providerBaseUrl(target: string): string {
  const url = target.replace(/\/+$/, '');
  if (!url.endsWith('/v1')) throw new Error(`The target must end in /v1, got '${target}'.`);
  return url.slice(0, -'/v1'.length);
}

/**
 * The verifier reports a failure as its whole JSON result; name the failed
 * interactions and their first mismatch instead.
 */
function describeFailure(message: string, result: VerifierJson | undefined): string {
  if (!result) return message;
  const all = result.interactionResults ?? [];
  const failed = (result.errors ?? []).map((e) => {
    const first = e.mismatch?.mismatches?.[0];
    return `${e.interaction.replace(/^Verifying a pact between .+? Given /, 'given ')}${first ? ` (${first.path ? `${first.path}: ` : ''}${first.mismatch})` : ''}`;
  });
  return `${failed.length} of ${plural(all.length, 'interaction')} failed: ${failed.join('; ')}`;
}

/**
 * Replays every interaction of the pact files against `target` as any team's
 * verifier would: pact-js's Verifier with the sandbox's state-change endpoint
 * as `providerStatesSetupUrl` and the key as a custom header, which the
 * verifier sends to `/v1` and to the endpoint alike (so the endpoint sets up
 * states in that key's workspace, and `the request has no valid API key`
 * makes the sandbox refuse it once). A state the sandbox does not know fails
 * the run before anything is sent. Rejects when any interaction fails.
 */
export async function verifyPacts(options: VerifyPactsOptions): Promise<PactSummary> {
  process.env.PACT_DO_NOT_TRACK ??= 'true';
  const files = options.pactFiles ?? listPactFiles();
  if (files.length === 0) throw new Error('No pact files to verify.');
  const pacts = describePacts(files);
  if (pacts.wrongProvider.length > 0 && !options.served) throw new Error(`Pact files for another provider: ${pacts.wrongProvider.join(', ')}.`);
  const unknown = unknownStates(pacts.states).map((name) => `unknown provider state '${name}' (known: ${KNOWN_STATES.map((s) => `'${s}'`).join(', ')})`);
  if (unknown.length > 0) throw new PactFailure(`Pact verification failed:\n- ${unknown.join('\n- ')}`, []);
  let output: string;
  try {
    output = await new Verifier({
      provider: PROVIDER,
      providerBaseUrl: options.served?.origin ?? providerBaseUrl(options.target),
      pactUrls: files,
      providerStatesSetupUrl: `${options.adminUrl.replace(/\/+$/, '')}${CONTROL_BASE}/provider-states`,
      customProviderHeaders: options.served?.headers ?? { Authorization: `Bearer ${options.key}` },
      logLevel: options.logLevel ?? 'warn',
    }).verifyProvider();
  } catch (failure) {
    const message = (failure as Error | undefined)?.message ?? String(failure);
    const result = parseVerifierJson(message);
    throw new PactFailure(`Pact verification failed:\n- verification failed: ${describeFailure(message, result)}`, result?.interactionResults ?? [], {
      cause: failure,
    });
  }
  const results = parseVerifierJson(output)?.interactionResults ?? [];
  return { files, consumers: pacts.consumers, interactions: pacts.interactions, results };
}
