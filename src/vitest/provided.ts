/**
 * What the sandbox's global setup hands every test worker through Vitest's
 * `provide`/`inject`: plain values (they cross to the workers as such),
 * under one key of Vitest's `ProvidedContext`.
 */
import type { CreateSandboxOptions } from '../library/options.js';

/** The `ProvidedContext` key the sandbox's values are provided under. */
export const PROVIDED_KEY = 'petstoreSandbox';

/** The run's sandbox, as every worker reads it. */
export interface ProvidedSandbox {
  /** The sandbox's origin, e.g. `http://127.0.0.1:39213`. */
  url: string;
  /** The interface's base URL: `url` + `/v1`. */
  baseUrl: string;
  /** The control plane's token. */
  adminToken: string;
  /** Each worker's API key is this prefix, a dash and its `VITEST_POOL_ID`: a new prefix per run, so runs never share a workspace. */
  keyPrefix: string;
  /** The options the sandbox was made with but its port and host (JSON values): for a worker's own sandbox in process (`sandboxHandlers`). */
  options: CreateSandboxOptions;
}

declare module 'vitest' {
  export interface ProvidedContext {
    petstoreSandbox: ProvidedSandbox;
  }
}
