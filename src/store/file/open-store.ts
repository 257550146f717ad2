import { errnoOf, storageFailure } from '../../kernel/store-errors.js';
import { PetStore, type PetStoreOptions } from './pet-store.js';
import type { WorkspaceIds } from './workspace-ids.js';

/** How often opening a workspace is retried after closing an idle one, when descriptors ran out. */
const DESCRIPTOR_RETRIES = 3;

/**
 * A workspace's store, opened (`PetStore.open`), once `secret` (the ids its
 * file is named by), when given, is on disk. When the process ran out of
 * file descriptors, `closeOne` closes an idle workspace and the open is
 * tried again, a few times at most; once none can be closed, the answer is
 * a 503 naming the cause. Any other failure is thrown as it is.
 */
export async function openStore(options: PetStoreOptions, closeOne: () => Promise<boolean>, secret?: WorkspaceIds): Promise<PetStore> {
  try {
    await secret?.persist();
  } catch (error) {
    throw storageFailure(error, 'Could not open the workspace');
  }
  for (let attempt = 0; ; attempt++) {
    try {
      return await PetStore.open(options);
    } catch (error) {
      const outOfDescriptors = errnoOf(error) === 'EMFILE' || errnoOf(error) === 'ENFILE' || /EMFILE|ENFILE/.test((error as Error).message);
      if (!outOfDescriptors || attempt >= DESCRIPTOR_RETRIES || !(await closeOne())) {
        throw outOfDescriptors ? storageFailure(error, 'Could not open the workspace') : error;
      }
    }
  }
}
