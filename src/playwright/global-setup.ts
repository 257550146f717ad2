/**
 * The `petstore-sandbox/playwright/global-setup` entry: Playwright's
 * `globalSetup`, which starts one sandbox for the whole run (the memory store
 * unless told otherwise) on 127.0.0.1 and a free port, and stops it when the
 * run ends. Its URL and admin token reach the workers through the
 * environment (env.ts).
 */
import type { FullConfig } from '@playwright/test';
import { createSandbox } from '../library/create-sandbox.js';
import type { CreateSandboxOptions } from '../library/options.js';
import { DEFAULT_API_KEY } from '../config/load.js';
import { ADMIN_TOKEN_VARIABLE, URL_VARIABLE, workerKey } from './env.js';

/** A global setup: what Playwright calls before the first worker starts; its result is called after the run. */
export type SandboxGlobalSetup = (config: FullConfig) => Promise<(() => Promise<void>) | undefined>;

/**
 * A global setup that starts a sandbox made with `options` (as
 * `createSandbox` takes them), accepting one key per worker besides
 * `options.apiKeys`. When `PETSTORE_SANDBOX_URL` is set already (a sandbox
 * the run is pointed at, which must accept the keys `playwright-worker-0`,
 * `playwright-worker-1`, …, or run with `open-keys`), it starts nothing.
 */
export function sandboxGlobalSetup(options: CreateSandboxOptions = {}): SandboxGlobalSetup {
  return async (config) => {
    if (process.env[URL_VARIABLE]) return undefined;
    const workerKeys = Array.from({ length: config.workers }, (_, i) => workerKey(i));
    const sandbox = await createSandbox({ ...options, apiKeys: [...(options.apiKeys ?? [DEFAULT_API_KEY]), ...workerKeys] });
    process.env[URL_VARIABLE] = await sandbox.listen();
    process.env[ADMIN_TOKEN_VARIABLE] = sandbox.adminToken;
    return async () => {
      delete process.env[URL_VARIABLE];
      delete process.env[ADMIN_TOKEN_VARIABLE];
      await sandbox.close();
    };
  };
}

/** The global setup with every option at its default: `globalSetup: 'petstore-sandbox/playwright/global-setup'`. */
export default sandboxGlobalSetup();
