import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { basename, dirname, extname, join } from 'node:path';
import type { ItemStore, SeededItems } from '../items/types.js';
import { parseJson } from '../../kernel/json.js';
import { errnoOf, StoreFailure, storageFailure } from '../../kernel/store-errors.js';
import { storeClosing } from '../uses-in-flight.js';
import { KeyedSerial } from '../keyed-serial.js';
import { removeDurably, writeFileAtomic } from './durable-entries.js';
import { FileItemSpace, spaceText, type StoredCollection } from './item-space.js';

export interface FileItemStoreOptions {
  /** The data file: the items live in `<name>.items/` beside it. */
  dataFile: string;
  /** Workspace ids (`WorkspaceIds`): the id of a key, and the secret written before any file is named by an id. */
  ids: { of(key: string): string; persist(): Promise<void> };
}

/** A space opening, and once open, the space itself (so reads need no promise). */
interface Entry {
  opening: Promise<FileItemSpace>;
  space?: FileItemSpace;
}

/** The name of an API's file: a hash of its base path (any characters, any length), never the path itself. */
export const apiFileName = (api: string): string => `${createHash('sha256').update(api).digest('hex').slice(0, 16)}.json`;

const damaged = (file: string, why: string) =>
  new StoreFailure(
    'service_unavailable',
    `The stored items file ${basename(dirname(file))}/${basename(file)} is damaged (${why}). Move it away; its API then starts afresh.`,
  );

/** A space's file as written by `spaceText`; undefined when there is none. Checked: a damaged file is refused, never overwritten. */
async function readSpace(file: string, api: string): Promise<Map<string, StoredCollection> | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if (errnoOf(error) === 'ENOENT') return undefined;
    throw storageFailure(error, "Could not read the API's items");
  }
  let data: { format?: unknown; api?: unknown; collections?: unknown };
  try {
    data = parseJson(text) as typeof data;
  } catch (error) {
    throw damaged(file, (error as Error).message);
  }
  if (data?.format !== 1 || data.api !== api || typeof data.collections !== 'object' || data.collections === null) throw damaged(file, 'not an items file');
  const collections = new Map<string, StoredCollection>();
  for (const [name, value] of Object.entries(data.collections)) {
    const { nextId, items } = value as Partial<StoredCollection>;
    if (!Array.isArray(items) || (nextId !== undefined && !Number.isSafeInteger(nextId))) throw damaged(file, `collection ${name}`);
    collections.set(name, nextId === undefined ? { items } : { nextId, items });
  }
  return collections;
}

/**
 * The file backend's items: each API's in one workspace in one file,
 * `<data>.items/<workspace id>/<hash of the API's base path>.json` beside
 * the data file, named by the workspace id (a keyed hash of the key), never
 * the key. A space is read on its first use (or seeded and written, if it
 * has no file yet) and then kept in memory; no file stays open. Opening and
 * removing a workspace's spaces run one at a time per workspace.
 */
export function createFileItemStore({ dataFile, ids }: FileItemStoreOptions): ItemStore {
  const folder = join(dirname(dataFile), `${basename(dataFile, extname(dataFile))}.items`);
  const spaces = new Map<string, Map<string, Entry>>();
  const serial = new KeyedSerial();
  let closed = false;

  const open = (id: string, api: string, seed: () => SeededItems): Promise<FileItemSpace> =>
    serial.run(id, async () => {
      const file = join(folder, id, apiFileName(api));
      const stored = await readSpace(file, api);
      if (stored) return new FileItemSpace(file, api, stored);
      const collections = new Map<string, StoredCollection>([...seed()].map(([name, items]) => [name, { items: [...items] }]));
      try {
        await ids.persist();
        await writeFileAtomic(file, spaceText(api, collections));
      } catch (error) {
        throw storageFailure(error, "Could not store the API's items");
      }
      return new FileItemSpace(file, api, collections);
    });

  return {
    space(api, key, seed) {
      if (closed) return Promise.reject(storeClosing());
      const id = ids.of(key);
      let byApi = spaces.get(id);
      if (!byApi) spaces.set(id, (byApi = new Map()));
      const known = byApi.get(api);
      if (known) return known.space ?? known.opening;
      const entry: Entry = { opening: open(id, api, seed) };
      byApi.set(api, entry);
      entry.opening.then(
        (space) => (entry.space = space),
        () => spaces.get(id)?.get(api) === entry && spaces.get(id)?.delete(api),
      );
      return entry.opening;
    },
    drop(key) {
      const id = ids.of(key);
      const entries = [...(spaces.get(id)?.values() ?? [])];
      spaces.delete(id);
      return serial.run(id, async () => {
        const reset = new StoreFailure('service_unavailable', 'The workspace was reset meanwhile. Nothing was changed. Try again.');
        for (const entry of entries) await (await entry.opening.catch(() => undefined))?.stop(reset);
        await removeDurably([join(folder, id)]).catch((error: unknown) => {
          throw storageFailure(error, "Could not remove the workspace's items");
        });
      });
    },
    async close() {
      closed = true;
      const entries = [...spaces.values()].flatMap((byApi) => [...byApi.values()]);
      for (const entry of entries) await (await entry.opening.catch(() => undefined))?.stop(storeClosing());
    },
  };
}
