import type { ItemStore } from './types.js';

/** An item store that can also forget a workspace by its id. */
export interface ItemStoreById extends ItemStore {
  /**
   * Forgets the items of the workspace with id `id`, as `drop` of its key
   * does (its next use seeds them afresh): an open key's workspace removed
   * (beyond the cap, past the TTL), whose key the backend no longer knows.
   * Best effort: a failure leaves what the removal already took away.
   */
  forget(id: string): void;
}

/**
 * `store`, remembering the key behind each workspace id it was asked for,
 * so that a workspace removed by its id (docs/open-keys.md) loses its
 * items with its pets, journal and faults; each use of a key's items told
 * to `used`, so that a workspace used only through them counts as used
 * (`--open-key-ttl`, `--open-key-workspaces`).
 */
export function byWorkspaceId(store: ItemStore, idOf: (key: string) => string, used?: (key: string) => void): ItemStoreById {
  const keys = new Map<string, string>();
  return {
    space(api, key, seed) {
      keys.set(idOf(key), key);
      used?.(key);
      return store.space(api, key, seed);
    },
    drop(key) {
      keys.delete(idOf(key));
      return store.drop(key);
    },
    forget(id) {
      const key = keys.get(id);
      if (key === undefined) return;
      keys.delete(id);
      void Promise.resolve()
        .then(() => store.drop(key))
        .catch(() => undefined);
    },
    close: () => store.close(),
  };
}
