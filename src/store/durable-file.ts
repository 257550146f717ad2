import { open, readFile, rename, mkdir } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { Adapter } from 'lowdb';
import { StoreError, type StoreData } from './types.js';

async function fsyncDir(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Writes `text` to `file` so that a crash leaves either the old or the new file whole. */
export async function writeFileAtomic(file: string, text: string): Promise<void> {
  const dir = dirname(file);
  await mkdir(dir, { recursive: true });
  const temp = join(dir, `.${basename(file)}.tmp`);
  const handle = await open(temp, 'w');
  try {
    await handle.writeFile(text, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(temp, file);
  await fsyncDir(dir);
}

/**
 * One pet per line: the file stays readable and diffable for QA, and far
 * smaller than pretty-printed JSON.
 */
export function serialize(data: StoreData): string {
  const head = JSON.stringify({ format: data.format, epoch: data.epoch, nextId: data.nextId });
  const pets = data.pets.map((p) => JSON.stringify(p)).join(',\n');
  return `${head.slice(0, -1)},"pets":[${pets ? `\n${pets}\n` : ''}]}\n`;
}

/**
 * lowdb adapter for the snapshot file: atomic (temp file, fsync, rename,
 * fsync of the folder) so an acknowledged write survives a crash, and strict
 * on read: a file that is not this sandbox's data is an error naming the
 * file, never something to overwrite.
 */
export class DurableJsonFile implements Adapter<StoreData> {
  constructor(readonly file: string) {}

  async read(): Promise<StoreData | null> {
    let text: string;
    try {
      text = await readFile(this.file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw new StoreError(`Cannot read data file ${this.file}: ${(error as Error).message}`);
    }
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch (error) {
      throw new StoreError(`Data file ${this.file} is not valid JSON (${(error as Error).message}). Fix or move it away; it was left untouched.`);
    }
    const d = data as Partial<StoreData> | null;
    if (!d || d.format !== 1 || !Array.isArray(d.pets) || !Number.isSafeInteger(d.nextId) || !Number.isSafeInteger(d.epoch)) {
      throw new StoreError(`Data file ${this.file} is not a pet store data file (expected {"format":1,"epoch","nextId","pets":[...]}). It was left untouched.`);
    }
    return d as StoreData;
  }

  async write(data: StoreData): Promise<void> {
    await writeFileAtomic(this.file, serialize(data));
  }
}
