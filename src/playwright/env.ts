/**
 * What the global setup hands the workers, and how a worker finds it again.
 * Playwright starts its workers after the global setup has run, each with a
 * copy of the runner's environment: a variable set there is the one channel
 * that reaches every worker without a file.
 */

/** The sandbox's origin, e.g. `http://127.0.0.1:39213`. */
export const URL_VARIABLE = 'PETSTORE_SANDBOX_URL';
/** The control plane's token: the workers reset their workspaces and read their journals with it. */
export const ADMIN_TOKEN_VARIABLE = 'PETSTORE_SANDBOX_ADMIN_TOKEN';

/**
 * The API key of the worker in slot `parallelIndex`. A slot, not a worker:
 * a worker that replaces a failed one takes its slot and its key, and starts
 * from a reset workspace, so the keys stay as few as the workers.
 */
export const workerKey = (parallelIndex: number): string => `playwright-worker-${parallelIndex}`;

/** Where the run's sandbox is: read from the variables the global setup set. */
export interface SandboxLocation {
  url: string;
  adminToken: string;
}

/** The run's sandbox, or an Error that says how to start one. */
export function sandboxLocation(env: NodeJS.ProcessEnv): SandboxLocation {
  const url = env[URL_VARIABLE];
  const adminToken = env[ADMIN_TOKEN_VARIABLE];
  if (url === undefined || url === '' || adminToken === undefined || adminToken === '') {
    throw new Error(
      `No Pet Store sandbox for this run: ${URL_VARIABLE} and ${ADMIN_TOKEN_VARIABLE} are not set. ` +
        "Add globalSetup: 'petstore-sandbox/playwright/global-setup' to playwright.config, or set both to a sandbox you run.",
    );
  }
  return { url: url.replace(/\/+$/, ''), adminToken };
}
