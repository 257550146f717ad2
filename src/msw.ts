/**
 * `import { sandboxHandlers } from 'petstore-sandbox/msw'`: the sandbox as
 * MSW request handlers, for `setupServer` in Node (docs/testing.md). The
 * browser's build of this entry is `msw-browser.ts`. Importing it starts nothing.
 */
import { createSandbox } from './library/create-sandbox.js';
import { configOf, type CreateSandboxOptions } from './library/options.js';
import { mswSandbox, type MswSandbox } from './library/msw-sandbox.js';

export type { CreateSandboxOptions } from './library/options.js';
export type { MswSandbox } from './library/msw-sandbox.js';
export type { Workspace } from './library/workspace.js';
export { ControlError } from './control/client.js';
export { ConfigError } from './config/error.js';

/** A sandbox's options, and where its handlers answer. */
export interface MswSandboxOptions extends CreateSandboxOptions {
  /** Only requests to this origin (e.g. `https://api.example.test`) are answered; default every origin. */
  origin?: string;
}

/**
 * MSW handlers over a sandbox in this process (the memory store by
 * default): `setupServer(...sandboxHandlers(options).handlers)`. The
 * sandbox is made at once and its requests wait for it; its workspaces'
 * controls are ready at once too. A bad option throws a ConfigError here,
 * as the command line would refuse it. Every mode works (Prism's too).
 */
export function sandboxHandlers(options: MswSandboxOptions = {}): MswSandbox {
  const { origin, ...sandboxOptions } = options;
  const config = configOf(sandboxOptions);
  return mswSandbox({ sandbox: createSandbox(sandboxOptions), apiKeys: config.apiKeys, adminToken: config.adminToken, origin });
}
