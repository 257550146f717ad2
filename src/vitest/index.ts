/**
 * `import { sandboxContext, sandboxWorkspace } from 'petstore-sandbox/vitest'`:
 * Vitest with one sandbox for the run and a workspace per worker
 * (docs/test-runners.md). The global setup is `petstore-sandbox/vitest/global-setup`,
 * the setup file that resets a worker's workspace before each test file
 * `petstore-sandbox/vitest/setup`. Importing it starts nothing.
 */
export { sandboxContext, sandboxWorkspace, type SandboxContext } from './worker.js';
export { PROVIDED_KEY, type ProvidedSandbox } from './provided.js';
export type { Workspace } from '../library/workspace.js';
export type { CreateSandboxOptions } from '../library/options.js';
