/**
 * The browser's build of `petstore-sandbox/msw` (package.json's `browser`
 * condition, dist/browser/msw.js): the same `sandboxHandlers` as `msw.ts`,
 * for `setupWorker`, over a sandbox made without Node (createBrowserSandbox:
 * the memory store, the specs and fixture sets embedded at build time).
 * Importing it starts nothing.
 */
import { browserConfigOf, type BrowserSandboxOptions } from './library/browser-options.js';
import { createBrowserSandbox } from './library/browser-sandbox.js';
import { documentBases } from './openapi/served-spec.js';
import { specSources } from './library/option-values.js';
import { sandboxHandlersOf, type MswSandbox, type MswSandboxOptions } from './library/msw-sandbox.js';

export { createBrowserSandbox, type BrowserSandbox } from './library/browser-sandbox.js';
export type { CreateSandboxOptions } from './library/options.js';
export type { BrowserSandboxOptions } from './library/browser-options.js';
export type { MswSandbox, MswSandboxOptions } from './library/msw-sandbox.js';
export type { Workspace } from './library/workspace.js';
export type { ErrorBody, NewPet, Pet, PetStatus, Pets } from './openapi/interface-types.js';
export { ControlError } from './control/client.js';
export { ConfigError } from './config/error.js';

/** The browser's `sandboxHandlers` options: Node's, and `persist` (the pets kept in IndexedDB, across reloads). */
export type BrowserMswSandboxOptions = MswSandboxOptions & Pick<BrowserSandboxOptions, 'persist'>;

/**
 * MSW handlers over a sandbox in the page (or its service worker):
 * `setupWorker(...sandboxHandlers(options).handlers)`. The sandbox is made
 * at once and its requests wait for it. An option that needs Node (`mode`
 * `example` or `dynamic`, a `store` other than memory, a `port`) throws a
 * ConfigError here, saying why. `persist: true` or `{ name }` keeps the
 * pets in IndexedDB, so they survive a reload (docs/library.md).
 */
export function sandboxHandlers(options: BrowserMswSandboxOptions = {}): MswSandbox {
  return sandboxHandlersOf(options, { check: browserConfigOf, make: createBrowserSandbox, bases: (o) => documentBases(specSources(o.spec)) });
}
