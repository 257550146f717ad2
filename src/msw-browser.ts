/**
 * The browser's build of `petstore-sandbox/msw` (package.json's `browser`
 * condition, dist/browser/msw.js): the same `sandboxHandlers` as `msw.ts`,
 * for `setupWorker`, over a sandbox made without Node (createBrowserSandbox:
 * the memory store, the specs and fixture sets embedded at build time).
 * Importing it starts nothing.
 */
import { browserConfigOf } from './library/browser-options.js';
import { createBrowserSandbox } from './library/browser-sandbox.js';
import { mswSandbox, type MswSandbox } from './library/msw-sandbox.js';
import type { CreateSandboxOptions } from './library/options.js';

export { createBrowserSandbox, type BrowserSandbox } from './library/browser-sandbox.js';
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
 * MSW handlers over a sandbox in the page (or its service worker):
 * `setupWorker(...sandboxHandlers(options).handlers)`. The sandbox is made
 * at once and its requests wait for it. An option that needs Node (`mode`
 * `example` or `dynamic`, a `store` other than memory, a `port`) throws a
 * ConfigError here, saying why.
 */
export function sandboxHandlers(options: MswSandboxOptions = {}): MswSandbox {
  const { origin, ...sandboxOptions } = options;
  const config = browserConfigOf(sandboxOptions);
  return mswSandbox({ sandbox: createBrowserSandbox(sandboxOptions), apiKeys: config.apiKeys, adminToken: config.adminToken, origin });
}
