import { Verifier } from '@pact-foundation/pact';
import type { RequestHandler } from 'express';
import { createControlClient } from '../../src/control/client.js';
import { describePacts, listPactFiles, PROVIDER } from '../pact-files.js';
import { createStateHandlers } from './states.js';

export interface VerifyPactsOptions {
  /** The base address ending in `/v1`; pact paths start with `/v1`. */
  target: string;
  key: string;
  /** Origin serving `/__sandbox`, where provider states are set up. */
  adminUrl: string;
  adminToken: string;
  /** Default: every `*.json` in contracts/pacts. */
  pactFiles?: string[];
  logLevel?: 'error' | 'warn' | 'info' | 'debug';
}

/** A provider state that takes longer to set up is a failure, not a hang. */
export const CONTROL_TIMEOUT_MS = 10_000;

export interface PactSummary {
  files: string[];
  consumers: string[];
  interactions: number;
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
 * Replays every interaction of the pact files against `target`, setting up
 * each provider state through the control plane first. The key is sent
 * only where the consumer sent an Authorization header: an interaction
 * without one is about the 401. Rejects when any interaction fails.
 */
/**
 * The verifier reports a failure as its whole JSON result; name the failed
 * interactions and their first mismatch instead.
 */
function describeFailure(failure: unknown): string {
  const message = (failure as Error | undefined)?.message ?? String(failure);
  try {
    const result = JSON.parse(message.slice(message.indexOf('{'))) as {
      interactionResults?: { description: string; result: string }[];
      errors?: { interaction: string; mismatch?: { mismatches?: { mismatch: string; path?: string }[] } }[];
    };
    const all = result.interactionResults ?? [];
    const failed = (result.errors ?? []).map((e) => {
      const first = e.mismatch?.mismatches?.[0];
      return `${e.interaction.replace(/^Verifying a pact between .+? Given /, 'given ')}${first ? ` (${first.path ? `${first.path}: ` : ''}${first.mismatch})` : ''}`;
    });
    return `${failed.length} of ${all.length} interaction(s) failed: ${failed.join('; ')}`;
  } catch {
    return message;
  }
}

export async function verifyPacts(options: VerifyPactsOptions): Promise<PactSummary> {
  process.env.PACT_DO_NOT_TRACK ??= 'true';
  const files = options.pactFiles ?? listPactFiles();
  if (files.length === 0) throw new Error('No pact files to verify.');
  const pacts = describePacts(files);
  if (pacts.wrongProvider.length > 0) throw new Error(`Pact files for another provider: ${pacts.wrongProvider.join(', ')}.`);
  const control = createControlClient({ origin: options.adminUrl, adminToken: options.adminToken, key: options.key, timeoutMs: CONTROL_TIMEOUT_MS });
  const requestFilter: RequestHandler = (req, _res, next) => {
    if (req.headers.authorization !== undefined) req.headers.authorization = `Bearer ${options.key}`;
    next();
  };
  const states = createStateHandlers(pacts.states, control);
  let failure: unknown;
  try {
    await new Verifier({
      provider: PROVIDER,
      providerBaseUrl: providerBaseUrl(options.target),
      pactUrls: files,
      stateHandlers: states.handlers,
      requestFilter,
      logLevel: options.logLevel ?? 'warn',
    }).verifyProvider();
  } catch (error) {
    failure = error;
  }
  const problems = [...states.failures, ...(failure ? [`verification failed: ${describeFailure(failure)}`] : [])];
  if (problems.length > 0) throw new Error(`Pact verification failed:\n- ${[...new Set(problems)].join('\n- ')}`);
  return { files, consumers: pacts.consumers, interactions: pacts.interactions };
}
