/**
 * The package's main entry, `import { createSandbox } from 'petstore-sandbox'`:
 * a sandbox in this process for a test suite (docs/library.md), and the
 * interface's types (`Pet`, `NewPet`, `PetStatus`, `ErrorBody`...), generated
 * from its spec. Importing it starts nothing.
 */
export { createSandbox, type PetstoreSandbox } from './library/create-sandbox.js';
export type { CreateSandboxOptions } from './library/options.js';
export type { Workspace } from './library/workspace.js';
export type { BodyReader, EngineRequest, EngineResponse, EngineHeaders, EngineStream } from './kernel/types.js';
export type { ServerSentEvent } from './control/sse.js';
export type { ControlBody, ControlQuery, ControlResult } from './control/routes.js';
export type {
  BadRequestErrorBody,
  ErrorBody,
  ListPetsQuery,
  NewPet,
  Pet,
  PetStatus,
  Pets,
  PetStoreOperations,
  PetStorePaths,
  UnauthorizedErrorBody,
} from './openapi/interface-types.js';
export { ControlError } from './control/client.js';
export { ConfigError } from './config/error.js';
