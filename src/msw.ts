/**
 * `import { sandboxHandlers } from 'petstore-sandbox/msw'`: the sandbox as
 * MSW request handlers, for `setupServer` in Node (docs/test-runners.md). The
 * browser's build of this entry is `msw-browser.ts`. Importing it starts nothing.
 */
import { createSandbox } from './library/create-sandbox.js';
import { configOf } from './library/options.js';
import { basesOf } from './server/served-specs.js';
import { specSources } from './library/option-values.js';
import { sandboxHandlersOf, type MswSandbox, type MswSandboxOptions } from './library/msw-sandbox.js';

export type { CreateSandboxOptions } from './library/options.js';
export type { MswSandbox, MswSandboxOptions } from './library/msw-sandbox.js';
export type { Workspace } from './library/workspace.js';
export type { ErrorBody, NewPet, Pet, PetStatus, Pets } from './openapi/interface-types.js';
export { ControlError } from './control/client.js';
export { ConfigError } from './config/error.js';

/**
 * MSW handlers over a sandbox in this process (the memory store by
 * default): `setupServer(...sandboxHandlers(options).handlers)`. The
 * sandbox is made at once and its requests wait for it; its workspaces'
 * controls are ready at once too. A bad option throws a ConfigError here,
 * as the command line would refuse it. Every mode works (Prism's too).
 */
export function sandboxHandlers(options: MswSandboxOptions = {}): MswSandbox {
  return sandboxHandlersOf(options, { check: configOf, make: createSandbox, bases: (o) => basesOf(specSources(o.spec)) });
}
