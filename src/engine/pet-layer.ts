/**
 * The Pet Store's rules as a thin layer over the conventions: in a spec
 * served by convention that has the Pet Store's own operations
 * (`openapi/petstore-operations.ts`), those are answered by the Pet
 * Store's stateful mode over the workspace's pets (its seeded pets, quota,
 * fixture sets, export and load, checkpoints, status index), every other
 * operation by convention; and the items seeded by convention refer to the
 * workspace's pets (`petId`), not to pets of their own.
 */
import type { ModeHandler } from '../kernel/operation.js';
import { PET_STORE_OPERATION_IDS } from '../openapi/petstore-operations.js';
import type { WorkspaceData, WorkspaceStore } from '../store/backend.js';
import type { ItemId, ItemStore, SeededItems } from '../store/items/types.js';

/** The most pets a seeding refers to: the first ones by id, as many as a collection holds. */
const REFERRED_PETS = 10_000;

/** Keys whose items this process saw seeded, at most this many remembered. */
const KNOWN_KEYS = 10_000;

/** The Pet Store's operations to its own mode, the rest to the conventions'. */
export function petLayer(petStore: ModeHandler, conventional: ModeHandler): ModeHandler {
  return {
    operations: new Set([...conventional.operations, ...PET_STORE_OPERATION_IDS]),
    handle: (request) => (PET_STORE_OPERATION_IDS.has(request.op.operationId) ? petStore : conventional).handle(request),
  };
}

const idsOf = (pets: readonly { id: number }[]): ItemId[] => pets.map((pet) => pet.id);

/** The ids of a workspace's pets when they can be read at once, else undefined. */
function petIdsNow(workspace: WorkspaceData): ItemId[] | undefined {
  const page = workspace.page(REFERRED_PETS);
  return page instanceof Promise ? undefined : idsOf(page.pets);
}

/**
 * An item store whose spaces are seeded by `seedWith` the ids of the
 * workspace's pets as they are when the space is first used: read at once
 * from a workspace open in this process (the file and memory stores), else
 * read first (PostgreSQL), once per key while this process has not seen its
 * items seeded. Seeded again after a reset through another instance, a
 * space refers to `seededIds`: the pets a reset gives back.
 */
export function petReferencing(
  items: ItemStore,
  workspaces: WorkspaceStore,
  seedWith: (petIds: readonly ItemId[]) => SeededItems,
  seededIds: readonly ItemId[],
): ItemStore {
  const known = new Set<string>();
  return {
    space(api, key) {
      const workspace = workspaces.peek(key);
      if (workspace || known.has(key)) return items.space(api, key, () => seedWith((workspace && petIdsNow(workspace)) ?? seededIds));
      const read = workspaces.use(key, (ws) => {
        const page = ws.page(REFERRED_PETS);
        return page instanceof Promise ? page.then((p) => idsOf(p.pets)) : idsOf(page.pets);
      });
      return read.then(async (ids) => {
        const space = await items.space(api, key, () => seedWith(ids));
        if (known.size >= KNOWN_KEYS) known.clear();
        known.add(key);
        return space;
      });
    },
    drop(key) {
      known.delete(key);
      return items.drop(key);
    },
    close: () => items.close(),
  };
}

/** The ids of the pets a workspace is seeded with (`--count`), as many as a seeding refers to. */
export const seededPetIds = (count: number): ItemId[] => Array.from({ length: Math.min(count, REFERRED_PETS) }, (_, i) => i + 1);
