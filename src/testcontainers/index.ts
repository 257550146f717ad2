/**
 * `import { PetStoreSandboxContainer } from 'petstore-sandbox/testcontainers'`:
 * the sandbox's container image for testcontainers-node (an optional peer
 * dependency), started with random credentials and awaited on `/readyz`
 * (docs/testcontainers.md).
 */
export { DEFAULT_IMAGE, PetStoreSandboxContainer, SANDBOX_PORT, type PetStoreSandboxOptions } from './container.js';
export { StartedPetStoreSandboxContainer, type SandboxAccess } from './started.js';
export { ControlError, type ControlClient } from '../control/client.js';
export type { Workspace } from '../library/workspace.js';
export type { Mode } from '../config/modes.js';
