/**
 * A fixture set loaded into a workspace: its pets and the items of the APIs
 * served by convention (`"apis"`), all or nothing. Shared by `POST /load`,
 * a checkpoint's restore and a copy.
 */
import type { SchemaCheck } from '../openapi/validate.js';
import type { WorkspaceStore } from '../store/backend.js';
import type { CollectionKey, ItemSpace, SpaceContents } from '../store/items/types.js';
import { nextIdAfterLoad } from '../store/rules.js';
import type { Pet } from '../store/types.js';
import { ApiError } from '../kernel/errors.js';
import { beforeWrite } from './before-write.js';
import { checkItems, type GivenCollection, type ItemsPlan, type ServedItems } from './api-items.js';
import { resolveFixture } from './fixtures.js';
import { loadWorkspace } from './operations.js';

/** A set checked whole: its pets (none: the stored pets stay) and its items. */
export interface SetPlan {
  pets?: { pets: Pet[]; nextId?: number };
  items?: ItemsPlan;
}

/** What a load writes to one API's space, and what that space held before (what a failure puts back). */
interface SpaceWrite {
  space: ItemSpace;
  keys: readonly CollectionKey[];
  next: SpaceContents;
  before: SpaceContents;
}

/** A set (a body, a fixture file, an export's text parsed) checked whole: its pets against the Pet schema, its `apis` against each item schema. */
export function planSet(set: unknown, checkPet: SchemaCheck, served: ServedItems | undefined): SetPlan {
  const s = set as { pets?: unknown; generate?: unknown; apis?: unknown } | null;
  const itemsOnly = typeof s === 'object' && s !== null && s.apis !== undefined && s.pets === undefined && s.generate === undefined;
  const items = s?.apis === undefined ? undefined : checkItems(served, s.apis);
  return { ...(itemsOnly ? {} : { pets: resolveFixture(set, checkPet) }), ...(items ? { items } : {}) };
}

/** The next id of an integer collection after a load: at least the one asked and the one held, past the highest id. */
function nextIdOf(given: GivenCollection, held: number | undefined, items: readonly { [k: string]: unknown }[]): number | undefined {
  if (given.key.idKind !== 'integer') return undefined;
  const highest = Math.max(0, ...items.map((item) => item[given.key.idField] as number));
  return nextIdAfterLoad(held ?? 0, given.nextId, highest);
}

/** What each API's space holds now, and what the load makes of it: `append` keeps the stored items and refuses an id stored. */
async function spaceWrites(served: ServedItems, key: string, plan: ItemsPlan, mode: 'replace' | 'append'): Promise<SpaceWrite[]> {
  const writes: SpaceWrite[] = [];
  for (const { api, collections } of plan) {
    const space = await served.store.space(api.base, key, api.seed);
    const keys = collections.map((c) => c.key);
    const before = await space.contents(keys);
    const next = new Map(
      collections.map((given) => {
        const held = before.get(given.key.name) ?? { items: [] };
        if (mode === 'replace') return [given.key.name, { nextId: nextIdOf(given, undefined, given.items), items: given.items }];
        const stored = new Set(held.items.map((item) => item[given.key.idField]));
        const clash = given.items.find((item) => stored.has(item[given.key.idField]));
        if (clash)
          throw ApiError.of(
            'invalid_request',
            `Nothing was loaded. An item with id ${JSON.stringify(clash[given.key.idField])} is already stored in ${api.base} ${given.key.name}; use "mode": "replace" or other ids.`,
          );
        const items = [...held.items, ...given.items];
        return [given.key.name, { nextId: nextIdOf(given, held.nextId, items), items }];
      }),
    );
    writes.push({ space, keys, next, before });
  }
  return writes;
}

/**
 * Loads a checked set into `key`'s workspace: the items of each API (one
 * atomic replace per API), then the pets; a failure of any write puts back
 * the items already written, so the workspace is left as it was.
 */
export async function loadSet(
  deps: { workspaces: WorkspaceStore; apiItems?: ServedItems | undefined },
  key: string,
  plan: SetPlan,
  mode: 'replace' | 'append',
  signal: AbortSignal | undefined,
): Promise<void> {
  const writes = plan.items && deps.apiItems ? await spaceWrites(deps.apiItems, key, plan.items, mode) : [];
  await beforeWrite(signal);
  const done: SpaceWrite[] = [];
  try {
    for (const write of writes) {
      await write.space.replaceAll(write.keys, write.next);
      done.push(write);
    }
    const pets = plan.pets;
    if (pets) await deps.workspaces.use(key, (store) => loadWorkspace(store, pets.pets, pets.nextId, mode));
  } catch (error) {
    for (const write of done.reverse()) await write.space.replaceAll(write.keys, write.before).catch(() => undefined);
    throw error;
  }
}
