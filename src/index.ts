/**
 * The package's main entry, `import { createSandbox } from 'petstore-sandbox'`:
 * a sandbox in this process for a test suite (docs/library.md). Importing it
 * starts nothing.
 */
export { createSandbox, type PetstoreSandbox } from './library/create-sandbox.js';
export type { CreateSandboxOptions } from './library/options.js';
export type { Workspace } from './library/workspace.js';
export type { BodyReader, EngineRequest, EngineResponse, EngineHeaders, EngineStream } from './kernel/types.js';
export type { ServerSentEvent } from './control/sse.js';
export type { ControlBody, ControlQuery, ControlResult } from './control/routes.js';
export { ControlError } from './control/client.js';
export { ConfigError } from './config/error.js';
