import { readdir, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { ConfigError } from '../../config/error.js';
import { removeDurably, removeEmptyDir } from './durable-entries.js';

/**
 * What a start found beside its data file, taken before it writes anything:
 * a start that fails takes away what it added, and nothing it found.
 */
export interface StartFootprint {
  /**
   * Removes the data file's entries the start added (the data file, its
   * log, its secret, the data file's temp file; never a torn log tail set
   * aside, nor anything that was there before). Called while the lock is
   * held, so no other process writes them; the lock goes with its release.
   */
  undo(): Promise<void>;
  /** Once the lock is released: the data folder, if the start made it and it is empty. */
  removeFolder(): Promise<void>;
}

const isDirectory = (path: string): Promise<boolean> =>
  stat(path).then(
    (found) => found.isDirectory(),
    () => false,
  );

/** The names in `dir`, or none when it does not exist. */
const namesIn = (dir: string): Promise<string[]> => readdir(dir).catch(() => []);

/**
 * The footprint of a start on `dataFile`. Refuses (ConfigError) a data
 * folder whose parent does not exist: one missing folder is made (the
 * default `./data` in a fresh clone), a missing tree is a mistyped path.
 */
export async function startFootprint(dataFile: string): Promise<StartFootprint> {
  const folder = dirname(dataFile);
  const folderExisted = await isDirectory(folder);
  if (!folderExisted && !(await isDirectory(dirname(folder)))) {
    throw new ConfigError(
      `the data file's folder ${folder} cannot be created: its parent ${dirname(folder)} does not exist (only one missing folder is made). Create it first, or choose another data file.`,
    );
  }
  const found = new Set(await namesIn(folder));
  const name = basename(dataFile);
  // What a start writes: the data file (seeded through its temp file), its commit log, its secret. By name, so that
  // another data file's in the same folder is never taken for one of them.
  const ours = new Set([name, `${name}.log`, `${name}.secret`, `.${name}.tmp`]);
  return {
    async undo() {
      const added = (await namesIn(folder)).filter((entry) => ours.has(entry) && !found.has(entry));
      await removeDurably(added.map((entry) => join(folder, entry)));
    },
    async removeFolder() {
      if (!folderExisted) await removeEmptyDir(folder).catch(() => undefined);
    },
  };
}
