import { readFile, stat } from 'node:fs/promises';
import type { Adapter } from 'lowdb';
import { parseJson, stringifyJson } from '../../kernel/json.js';
import { writeFileAtomic } from './durable-entries.js';
import { readLines } from './file-io.js';
import { StoreError, type StoreData } from '../types.js';

/** Text is written in pieces of about this size: never the whole file as one string. */
const PIECE = 1024 * 1024;
/** A hand-edited file (not one pet per line) is parsed whole, up to this size. */
const MAX_WHOLE_PARSE = 256 * 1024 * 1024;

/**
 * The data file's text in pieces of about 1 MiB: one pet per line, so the
 * file stays readable and diffable for QA, and far smaller than
 * pretty-printed JSON. Joined, the pieces are one JSON document.
 */
export function* serialize(data: StoreData): Generator<string> {
  const head = JSON.stringify({ format: data.format, epoch: data.epoch, nextId: data.nextId });
  const { pets } = data;
  if (pets.length === 0) {
    yield `${head.slice(0, -1)},"pets":[]}\n`;
    return;
  }
  let piece = `${head.slice(0, -1)},"pets":[\n`;
  for (let i = 0; i < pets.length; i++) {
    piece += stringifyJson(pets[i]) + (i < pets.length - 1 ? ',\n' : '\n');
    if (piece.length >= PIECE) {
      yield piece;
      piece = '';
    }
  }
  yield `${piece}]}\n`;
}

const HEAD = /^\{"format":1,"epoch":(\d+),"nextId":(\d+),"pets":\[(\]\})?$/;

/** The data file read line by line, when it has the layout `serialize` writes; undefined otherwise. */
async function readLaidOut(file: string): Promise<StoreData | undefined> {
  const pets: unknown[] = [];
  let head: RegExpExecArray | null = null;
  let closed = false;
  for await (const line of readLines(file)) {
    const text = line.bytes.toString('utf8');
    if (head === null) {
      head = HEAD.exec(text);
      if (!head) return undefined;
      closed = head[3] !== undefined;
    } else if (closed) {
      if (text !== '' || line.complete) return undefined;
    } else if (text === ']}') {
      closed = true;
    } else {
      const json = text.endsWith(',') ? text.slice(0, -1) : text;
      try {
        pets.push(parseJson(json));
      } catch {
        return undefined;
      }
    }
  }
  if (!head || !closed) return undefined;
  return { format: 1, epoch: Number(head[1]), nextId: Number(head[2]), pets } as StoreData;
}

/** The data file parsed as one document (a file edited by hand); bounded in size. */
async function readWhole(file: string, size: number): Promise<unknown> {
  if (size > MAX_WHOLE_PARSE) {
    throw new StoreError(
      `Data file ${file} is not laid out one pet per line and is too large (${size} bytes) to read as one document. Fix or move it away; it was left untouched.`,
    );
  }
  try {
    return parseJson(await readFile(file, 'utf8'));
  } catch (error) {
    throw new StoreError(`Data file ${file} is not valid JSON (${(error as Error).message}). Fix or move it away; it was left untouched.`);
  }
}

/**
 * lowdb adapter for the snapshot file: atomic and streamed both ways, and
 * strict on read: a file that is not this sandbox's data is an error naming
 * the file, never something to overwrite.
 */
export class DurableJsonFile implements Adapter<StoreData> {
  constructor(readonly file: string) {}

  async read(): Promise<StoreData | null> {
    let size: number;
    try {
      size = (await stat(this.file)).size;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw new StoreError(`Cannot read data file ${this.file}: ${(error as Error).message}`);
    }
    let data: unknown;
    try {
      data = (await readLaidOut(this.file)) ?? (await readWhole(this.file, size));
    } catch (error) {
      if (error instanceof StoreError) throw error;
      throw new StoreError(`Cannot read data file ${this.file}: ${(error as Error).message}`);
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
