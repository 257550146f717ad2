import { PetStore, type PetStoreOptions } from './pet-store.js';

/**
 * Where each API key's pets live. Routes and modes only ask for the store of
 * a key; how stores map to files is decided here.
 */
export interface Workspaces {
  forKey(key: string): Promise<PetStore>;
  /** Flushes and closes every open store. */
  close(): Promise<void>;
}

/** Every key shares one store: the configured data file. */
export async function openSharedWorkspace(options: PetStoreOptions): Promise<Workspaces & { store: PetStore }> {
  const store = await PetStore.open(options);
  return {
    store,
    forKey: () => Promise.resolve(store),
    close: () => store.close(),
  };
}
