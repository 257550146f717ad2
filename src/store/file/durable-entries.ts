import { randomUUID } from 'node:crypto';
import { constants } from 'node:fs';
import { link, mkdir, open, rename, rm, rmdir, stat, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/**
 * The one place where the store creates, renames and removes files and
 * folders, so that what a 201 depends on survives a power cut, not only a
 * crash of the process. A power cut keeps only what was fsynced, and that
 * includes folder entries: a file created or renamed in a folder survives
 * once that folder is fsynced, a new folder once its parent is. So every
 * function here syncs the folders whose entries it changed before it
 * resolves. ESLint forbids the raw calls (`mkdir`, `rename`, `rm`, ...)
 * anywhere else in `src/`. See docs/durability.md.
 */

/** A folder's sync state, kept by what writes in it: `unsynced` while its last sync failed. */
export interface FolderState {
  readonly dir: string;
  /** Nothing that depends on the folder's entries is acknowledged until a sync succeeds. */
  unsynced: boolean;
}

/** Folders that failed a sync or whose state is kept (`folderState`): each sync writes its outcome there. */
const folders = new Map<string, FolderState>();

/**
 * The sync state of `dir`, one object per folder, updated by every sync of
 * it: the commit log keeps its folder's and reads the flag before each
 * append, with no call and no await while the folder is synced.
 */
export function folderState(dir: string): FolderState {
  let state = folders.get(dir);
  if (!state) folders.set(dir, (state = { dir, unsynced: false }));
  return state;
}

/**
 * Makes a folder's entries (files created, renamed or removed in it)
 * durable. EINVAL means the file system cannot sync a folder at all (some
 * network and FUSE file systems): there is nothing more to do, as
 * PostgreSQL and SQLite also conclude. Any other failure is thrown.
 */
export async function syncDir(dir: string): Promise<void> {
  try {
    const handle = await open(dir, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EINVAL') return synced(dir);
    folderState(dir).unsynced = true;
    throw error;
  }
  synced(dir);
}

function synced(dir: string): void {
  const state = folders.get(dir);
  if (state) state.unsynced = false;
}

/** Folders made durable by this process, or being made so: a second caller waits for the first. */
const made = new Map<string, Promise<void>>();

const isDirectory = (dir: string): Promise<boolean> => stat(dir).then((s) => s.isDirectory(), fails);
const succeeds = (work: Promise<unknown>): Promise<boolean> => work.then(() => true, fails);
const fails = () => false;

/**
 * Creates `dir` and its missing parents, durably: each folder that gains an
 * entry is synced, parents first. A folder that already existed has its
 * parent synced too, once per process, at best effort (a process killed
 * just after creating it may not have synced it; a parent we cannot read is
 * not ours to fix). Concurrent callers share the work; a folder removed
 * since is made again.
 */
export async function ensureDir(dir: string): Promise<void> {
  const known = made.get(dir);
  if (known && (await succeeds(known)) && (await isDirectory(dir))) return;
  if (made.get(dir) === known) made.delete(dir);
  let making = made.get(dir);
  if (!making) {
    const started = makeDir(dir);
    made.set(dir, started);
    started.catch(() => made.get(dir) === started && made.delete(dir));
    making = started;
  }
  return making;
}

async function makeDir(dir: string): Promise<void> {
  const parent = dirname(dir);
  if (parent === dir) return;
  await ensureDir(parent);
  const created = await mkdir(dir).then(
    () => true,
    async (error: unknown) => {
      if (!(await isDirectory(dir))) throw error;
      return false;
    },
  );
  if (created) await syncDir(parent);
  else await syncDir(parent).catch(() => undefined);
}

/** The rename happened (readers see the new file) but its folder could not be synced: it may not survive a power cut. */
export class RenamedNotDurable extends Error {
  readonly code: string | undefined;

  constructor(
    readonly file: string,
    override readonly cause: unknown,
  ) {
    super(`${file} was replaced, but its folder could not be synced (${(cause as Error).message})`);
    this.name = 'RenamedNotDurable';
    this.code = (cause as NodeJS.ErrnoException).code;
  }
}

async function writeSynced(handle: FileHandle, pieces: Iterable<string | Buffer> | AsyncIterable<string | Buffer>): Promise<void> {
  for await (const piece of pieces) {
    // writeFile continues a short write itself, from where the last one ended (a new file, written in order).
    await handle.writeFile(piece);
  }
  await handle.sync();
}

/**
 * Writes `pieces` to `file` so that a crash or a power cut leaves either the
 * old or the new file whole: a temp file, fsync, rename, fsync of the
 * folder. A failure before the rename removes the temp file and leaves
 * `file` as it was; a failed folder sync after it throws RenamedNotDurable.
 */
export async function writeFileAtomic(file: string, pieces: Iterable<string> | AsyncIterable<string>): Promise<void> {
  const dir = dirname(file);
  await ensureDir(dir);
  const temp = join(dir, `.${basename(file)}.tmp`);
  try {
    const handle = await open(temp, 'w');
    try {
      await writeSynced(handle, pieces);
    } finally {
      await handle.close();
    }
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true }).catch(() => undefined);
    throw error;
  }
  // The rename is the commit point: a 201 that depends on it waits for the folder's sync, or fails.
  await syncDir(dir).catch((error: unknown) => {
    throw new RenamedNotDurable(file, error);
  });
}

/**
 * Creates `file` with `pieces` unless it exists (EEXIST), never seen
 * partly written: written aside and synced, then hard-linked to its name,
 * then the folder synced.
 */
export async function createFile(file: string, pieces: Iterable<string | Buffer> | AsyncIterable<string | Buffer>, mode = 0o644): Promise<void> {
  const dir = dirname(file);
  await ensureDir(dir);
  const temp = join(dir, `.${basename(file)}.${randomUUID()}.new`);
  try {
    const handle = await open(temp, 'wx', mode);
    try {
      await writeSynced(handle, pieces);
    } finally {
      await handle.close();
    }
    await link(temp, file);
  } finally {
    await rm(temp, { force: true }).catch(() => undefined);
  }
  await syncDir(dir);
}

/** Renames `from` to `to`, then syncs the folders of both. */
export async function renameFile(from: string, to: string): Promise<void> {
  await ensureDir(dirname(to));
  await rename(from, to);
  await syncDir(dirname(to));
  if (dirname(from) !== dirname(to)) await syncDir(dirname(from));
}

/**
 * Removes files and folders (with what they hold), then syncs each folder
 * they were in, so the removal survives a power cut. A path already gone is
 * no error, nor is a parent folder that never existed. A removed folder is
 * made again by a later `ensureDir`.
 */
export async function removeDurably(paths: readonly string[]): Promise<void> {
  const parents = new Set<string>();
  for (const path of paths) {
    for (const dir of made.keys()) if (dir === path || dir.startsWith(`${path}/`)) made.delete(dir);
    await rm(path, { recursive: true, force: true });
    parents.add(dirname(path));
  }
  for (const dir of parents) {
    await syncDir(dir).catch((error: unknown) => {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    });
  }
}

/** Removes `dir` if it is empty (ENOTEMPTY if not: nothing in it is touched), then syncs its parent. */
export async function removeEmptyDir(dir: string): Promise<void> {
  made.delete(dir);
  await rmdir(dir);
  await syncDir(dirname(dir));
}

/** Removes `file` (ENOENT if it is not there), then syncs its folder. */
export async function removeFile(file: string): Promise<void> {
  await rm(file);
  await syncDir(dirname(file));
}

/**
 * Opens `file` for positioned writes, creating it if needed (not O_APPEND:
 * the log writes at its own offset, so a failed write is overwritten, not
 * followed). A file it creates has its folder synced before it is returned.
 */
export async function openForWrite(file: string): Promise<FileHandle> {
  try {
    return await open(file, constants.O_RDWR);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  await ensureDir(dirname(file));
  const handle = await open(file, constants.O_RDWR | constants.O_CREAT | constants.O_EXCL, 0o644);
  try {
    await syncDir(dirname(file));
  } catch (error) {
    await handle.close();
    throw error;
  }
  return handle;
}
