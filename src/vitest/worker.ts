/**
 * `petstore-sandbox/vitest`: in a test (or a setup file), the run's sandbox
 * as this worker sees it: its URL, this worker's own API key, and that
 * key's workspace controls over HTTP. Light on purpose: it loads the
 * control plane's client, never the engine, since Vitest imports it again
 * for every test file.
 */
import { inject } from 'vitest';
import { createControlClient } from '../control/client.js';
import type { CreateSandboxOptions } from '../library/options.js';
import { workspaceOf, type Workspace } from '../library/workspace.js';
import { PROVIDED_KEY, type ProvidedSandbox } from './provided.js';

/** The run's sandbox and this worker's place in it. */
export interface SandboxContext {
  /** The sandbox's origin, e.g. `http://127.0.0.1:39213`. */
  readonly url: string;
  /** The interface's base URL (`url` + `/v1`): what the code under test is configured with. */
  readonly baseUrl: string;
  /** This worker's API key: its own workspace, seeded on first use. */
  readonly key: string;
  /** `Bearer <key>`, the Authorization header of this worker's requests. */
  readonly authorization: string;
  /** The control plane's token. */
  readonly adminToken: string;
  /** The options the run's sandbox was made with: for a sandbox of this worker's own in process (e.g. MSW handlers). */
  readonly options: CreateSandboxOptions;
}

/**
 * The worker's number in the pool (1 to the number of workers), which Vitest
 * keeps for a worker while it runs file after file.
 */
const poolId = (): string => process.env.VITEST_POOL_ID ?? process.env.VITEST_WORKER_ID ?? '1';

/** The values the global setup provided; a clear error when it did not run. */
function provided(): ProvidedSandbox {
  const value = inject(PROVIDED_KEY) as ProvidedSandbox | undefined;
  if (value === undefined) {
    throw new Error(
      "No Pet Store sandbox was provided: add 'petstore-sandbox/vitest/global-setup' (or a file of your own exporting defineSandboxSetup(...)) to test.globalSetup.",
    );
  }
  return value;
}

/** The run's sandbox as this worker sees it: URL, base URL, this worker's key and its Authorization header. */
export function sandboxContext(): SandboxContext {
  const { url, baseUrl, adminToken, keyPrefix, options } = provided();
  const key = `${keyPrefix}-${poolId()}`;
  return { url, baseUrl, key, authorization: `Bearer ${key}`, adminToken, options };
}

/** This worker's workspace: its typed controls (reset, load, faults, journal, checkpoints...) over HTTP. */
export function sandboxWorkspace(): Workspace {
  const { url, adminToken, key } = sandboxContext();
  return workspaceOf(createControlClient({ origin: url, adminToken, key }), key);
}
