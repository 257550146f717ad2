/**
 * `petstore-sandbox/vitest/global-setup`: Vitest's `globalSetup` that starts
 * one sandbox for the run (a real listener at 127.0.0.1 on a free port,
 * the memory store by default) with open keys, so that each worker's own
 * key gets a workspace of its own, and provides its URL and admin token to
 * the workers (docs/test-runners.md). Its default export starts one with the
 * defaults; `defineSandboxSetup(options)` makes one with options.
 */
import { randomBytes } from 'node:crypto';
import { createSandbox, type PetstoreSandbox } from '../library/create-sandbox.js';
import type { CreateSandboxOptions } from '../library/options.js';
import { PROVIDED_KEY, type ProvidedSandbox } from './provided.js';

/** What the run's sandbox is made with: a library sandbox's options, or a sandbox already running. */
export interface SandboxSetupOptions extends CreateSandboxOptions {
  /**
   * The origin of a sandbox already running (one started with `--open-keys`,
   * e.g. by docker compose) to use instead of starting one; then only
   * `adminToken` of the other options is read.
   */
  url?: string;
}

/**
 * The part of Vitest's `TestProject` a global setup uses (written out: Vitest's own
 * declarations pull in Vite's, which a user's project need not type-check).
 */
export interface ProvidingProject {
  provide(key: typeof PROVIDED_KEY, value: ProvidedSandbox): void;
}

/** A Vitest global setup function: set up, then the teardown Vitest calls after the run. */
export type SandboxGlobalSetup = (project: ProvidingProject) => Promise<() => Promise<void>>;

/** A key prefix no other run has: runs against one long-lived sandbox never share a workspace. */
const newKeyPrefix = () => `vitest-${randomBytes(6).toString('hex')}`;

/** The options for a worker's own sandbox in process: the run's, without its socket's port and host. */
function inProcess({ port: _port, host: _host, ...rest }: CreateSandboxOptions): CreateSandboxOptions {
  return rest;
}

/**
 * The global setup of a run's sandbox: export it as the default of the file
 * named in `test.globalSetup`. Starts the sandbox (or uses `options.url`),
 * provides `{ url, baseUrl, adminToken, keyPrefix, options }`, and closes the
 * sandbox it started when the run ends.
 */
export function defineSandboxSetup(options: SandboxSetupOptions = {}): SandboxGlobalSetup {
  return async (project) => {
    const { url: given, ...create } = options;
    let made: PetstoreSandbox | undefined;
    let url = given?.replace(/\/+$/, '');
    if (url === undefined) {
      made = await createSandbox({ ...create, host: create.host ?? '127.0.0.1', options: { 'open-keys': true, ...create.options } });
      url = await made.listen();
    }
    const provided: ProvidedSandbox = {
      url,
      baseUrl: `${url}/v1`,
      adminToken: made?.adminToken ?? options.adminToken ?? 'sandbox-admin',
      keyPrefix: newKeyPrefix(),
      options: inProcess(create),
    };
    project.provide(PROVIDED_KEY, provided);
    return async () => {
      await made?.close();
    };
  };
}

/** The default: a sandbox with the command line's defaults (seed 1, 50 pets, memory store). */
export default defineSandboxSetup();
