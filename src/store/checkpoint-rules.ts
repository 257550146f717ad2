import { StoreFailure } from '../kernel/store-errors.js';
import { echo } from '../kernel/echo.js';

/**
 * What every backend's checkpoints share: the name rule, the head line whose
 * bytes count with the text's, and the refusals of a save, worded once.
 */

/** A checkpoint's name: safe as a file name (no `/`, never a leading `.`), at most 64 characters. The control spec says the same. */
export const CHECKPOINT_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** The first line of a checkpoint file: what `list` shows without reading the export. */
export interface Head {
  checkpoint: 1;
  savedAt: string;
  count: number;
  nextId: number;
}

/**
 * A checkpoint's head as a line: the file backend writes it before the
 * export text, and every backend counts its bytes with the text's, so a
 * checkpoint takes the same bytes (and meets the same limits) on any.
 */
export const headLine = (head: Head): string => `${JSON.stringify(head)}\n`;

/** The refusals of a save, worded the same by every backend. */
export const refusals = {
  taken: (name: string) => new StoreFailure('conflict', `A checkpoint ${echo(name)} exists in this workspace; send "overwrite": true to replace it.`),
  count: (held: number) =>
    new StoreFailure('quota_exceeded', `The workspace holds ${held} checkpoints, its limit (--checkpoint-count). Delete one first. Nothing was saved.`),
  bytes: (budget: number) =>
    new StoreFailure(
      'quota_exceeded',
      `The workspace's checkpoints would take more than ${budget < 0 ? 0 : budget} more bytes (--checkpoint-bytes). Delete one first. Nothing was saved.`,
    ),
  name: (name: string) => new StoreFailure('invalid_request', `${echo(name)} is not a checkpoint name (${CHECKPOINT_NAME.source}).`),
};

/** A checkpoint a save meets: its name and the bytes it takes. */
export interface HeldCheckpoint {
  name: string;
  bytes: number;
}

/**
 * Whether a save of `name` may go on beside the workspace's checkpoints
 * (`held`), under `--checkpoint-count` and `--checkpoint-bytes`: refused when
 * the name is taken and `overwrite` is not sent, or when a new one would pass
 * the count. Returns the bytes the save may take: the limit less the others'
 * (the one it replaces does not count).
 */
export function saveBudget(held: Iterable<HeldCheckpoint>, name: string, overwrite: boolean, limits: { count: number; bytes: number }): number {
  let count = 0;
  let others = 0;
  let old = false;
  for (const checkpoint of held) {
    count += 1;
    if (checkpoint.name === name) old = true;
    else others += checkpoint.bytes;
  }
  if (old && !overwrite) throw refusals.taken(name);
  if (!old && count >= limits.count) throw refusals.count(count);
  return limits.bytes - others;
}
