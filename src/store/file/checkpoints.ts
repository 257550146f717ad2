import { open, readdir, readFile } from 'node:fs/promises';
import { basename, dirname, extname, join } from 'node:path';
import type { CheckpointInfo, CheckpointInput, CheckpointLimits, CheckpointStore } from '../backend.js';
import { removeFile, RenamedNotDurable, writeFileAtomic } from './durable-entries.js';
import { CHECKPOINT_NAME, headLine, refusals, saveBudget, type Head } from '../checkpoint-rules.js';
import { errnoOf, StoreError, StoreFailure, storageFailure } from '../../kernel/store-errors.js';
import { KeyedSerial } from '../keyed-serial.js';

export { CHECKPOINT_NAME, headLine, refusals, type Head } from '../checkpoint-rules.js';

/** The head line is short; more than this is not a checkpoint file. */
const HEAD_MAX = 512;

/**
 * The file backend's checkpoints: one file per checkpoint in
 * `<data>.checkpoints/<workspace id>/<name>.json` beside the data file
 * (`db.checkpoints/3ad2b6c8a8e61f4e/before-test.json`), named by the
 * workspace id, never the key. A file is a head line (`{"checkpoint":1,
 * "savedAt","count","nextId"}`) and then the export text, byte for byte.
 * Each is written atomically (temp file, fsync, rename, fsync of the
 * folder), so a crash or a failure leaves the old checkpoint or the new one,
 * never part of one. Saves and deletes of one workspace run one at a time,
 * so its limits hold under concurrent calls.
 */
export class FileCheckpoints implements CheckpointStore {
  private readonly serial = new KeyedSerial();

  constructor(
    private readonly dataFile: string,
    readonly limits: CheckpointLimits,
  ) {}

  /** The folder of a workspace's checkpoints. */
  folderOf(workspace: string): string {
    if (!/^[A-Za-z0-9_-]+$/.test(workspace)) throw new StoreError(`Not a workspace id: ${workspace}`);
    const ext = extname(this.dataFile);
    return join(dirname(this.dataFile), `${basename(this.dataFile, ext)}.checkpoints`, workspace);
  }

  async save(workspace: string, name: string, input: CheckpointInput, overwrite: boolean): Promise<CheckpointInfo> {
    const file = this.fileOf(workspace, name);
    return this.serial.run(workspace, async () => {
      const budget = saveBudget(await this.list(workspace), name, overwrite, this.limits);
      const head: Head = { checkpoint: 1, savedAt: new Date().toISOString(), count: input.count, nextId: input.nextId };
      const written = { bytes: 0 };
      try {
        await writeFileAtomic(file, withinBudget(headLine(head), input.text, budget, written));
      } catch (error) {
        if (error instanceof RenamedNotDurable) throw notDurable(name, error);
        throw storageFailure(error, 'Could not save the checkpoint');
      }
      return { name, savedAt: head.savedAt, count: head.count, nextId: head.nextId, bytes: written.bytes };
    });
  }

  async list(workspace: string): Promise<CheckpointInfo[]> {
    const folder = this.folderOf(workspace);
    let names: string[];
    try {
      names = await readdir(folder);
    } catch (error) {
      if (errnoOf(error) === 'ENOENT') return [];
      throw storageFailure(error, 'Could not list the checkpoints');
    }
    // Sorted by name (not file name: `a-b.json` sorts before `a.json`), in code unit order as PostgreSQL's COLLATE "C" sorts them.
    const found = names.flatMap((f) => (f.endsWith('.json') && CHECKPOINT_NAME.test(f.slice(0, -5)) ? [f.slice(0, -5)] : [])).sort();
    const infos = await Promise.all(found.map((name) => readInfo(join(folder, `${name}.json`), name)));
    return infos.filter((info): info is CheckpointInfo => info !== undefined);
  }

  async read(workspace: string, name: string): Promise<string | undefined> {
    let text: string;
    try {
      text = await readFile(this.fileOf(workspace, name), 'utf8');
    } catch (error) {
      if (errnoOf(error) === 'ENOENT') return undefined;
      throw storageFailure(error, 'Could not read the checkpoint');
    }
    const newline = text.indexOf('\n');
    if (newline < 0 || !parseHead(text.slice(0, newline))) throw new StoreError(`The checkpoint file of '${name}' is damaged (no head line).`);
    return text.slice(newline + 1);
  }

  async delete(workspace: string, name: string): Promise<boolean> {
    const file = this.fileOf(workspace, name);
    return this.serial.run(workspace, async () => {
      try {
        await removeFile(file);
        return true;
      } catch (error) {
        if (errnoOf(error) === 'ENOENT') return false;
        throw storageFailure(error, 'Could not delete the checkpoint');
      }
    });
  }

  private fileOf(workspace: string, name: string): string {
    if (!CHECKPOINT_NAME.test(name)) throw refusals.name(name);
    return join(this.folderOf(workspace), `${name}.json`);
  }
}

/** A save whose file is in place but whose folder could not be synced: listed now, maybe gone after a power cut. */
const notDurable = (name: string, error: RenamedNotDurable) =>
  new StoreFailure(
    'service_unavailable',
    `The checkpoint '${name}' was written, but its folder could not be synced (${error.code ?? (error.cause as Error).message}), so it may not survive a power cut. Save it again with "overwrite": true when storage is back.`,
    error,
  );

/** The head line, then the pieces; throws (quota_exceeded) as soon as the bytes pass `budget`, so the temp file is dropped. */
async function* withinBudget(
  head: string,
  pieces: Iterable<string> | AsyncIterable<string>,
  budget: number,
  written: { bytes: number },
): AsyncGenerator<string> {
  const count = (piece: string) => {
    written.bytes += Buffer.byteLength(piece);
    if (written.bytes > budget) throw refusals.bytes(budget);
    return piece;
  };
  yield count(head);
  for await (const piece of pieces) yield count(piece);
}

function parseHead(line: string): Head | undefined {
  try {
    const head = JSON.parse(line) as Partial<Head> | null;
    if (head?.checkpoint === 1 && typeof head.savedAt === 'string' && Number.isSafeInteger(head.count) && Number.isSafeInteger(head.nextId))
      return head as Head;
  } catch {
    // Not JSON: not a checkpoint file.
  }
  return undefined;
}

/** A checkpoint as listed, from its head line and size; undefined for a file that is gone or is not a checkpoint. */
async function readInfo(file: string, name: string): Promise<CheckpointInfo | undefined> {
  let handle;
  try {
    handle = await open(file, 'r');
  } catch (error) {
    if (errnoOf(error) === 'ENOENT') return undefined;
    throw storageFailure(error, 'Could not list the checkpoints');
  }
  try {
    const { size } = await handle.stat();
    const buffer = Buffer.alloc(Math.min(HEAD_MAX, size));
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    const text = buffer.subarray(0, bytesRead).toString('utf8');
    const head = parseHead(text.slice(0, Math.max(0, text.indexOf('\n'))));
    return head && { name, savedAt: head.savedAt, count: head.count, nextId: head.nextId, bytes: size };
  } finally {
    await handle.close();
  }
}
