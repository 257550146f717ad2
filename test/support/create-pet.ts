import type { WorkspaceData } from '../../src/store/backend.js';
import type { NewPet, Pet } from '../../src/store/types.js';

/**
 * A create as the sandbox makes one: `createText` (the pet with the JSON
 * text its 201 sends), resolved with the pet. A refusal before anything is
 * queued (a closed store) is thrown at once, as `createText` throws it.
 */
export function createPet(workspace: WorkspaceData, input: NewPet): Promise<Pet> {
  return workspace.createText(input).then(({ pet }) => pet);
}
