import { readFileSync } from 'node:fs';

/**
 * Descriptors kept for everything but client connections: standard streams,
 * the event loop, the listening socket, data files, logs and temp files.
 */
export const RESERVED_DESCRIPTORS = 64;

/**
 * The process's limit on open files (the soft limit, which Node raises to the
 * hard limit at start), from Linux's `/proc/self/limits`. Undefined where that
 * file does not exist or says `unlimited`.
 */
export function openFileLimit(read: () => string = () => readFileSync('/proc/self/limits', 'utf8')): number | undefined {
  let text: string;
  try {
    text = read();
  } catch {
    return undefined;
  }
  const soft = /^Max open files\s+(\d+)\s/m.exec(text)?.[1];
  return soft === undefined ? undefined : Number(soft);
}

/**
 * The connection cap that fits the open-file limit: past that limit every
 * new file or socket fails, data files included, so the cap is lowered to
 * keep `reserved` descriptors free. `note` says so when it was lowered.
 */
export function connectionCap(wanted: number, fileLimit: number | undefined, reserved = RESERVED_DESCRIPTORS): { cap: number; note?: string } {
  if (fileLimit === undefined || fileLimit - reserved >= wanted) return { cap: wanted };
  const cap = Math.max(1, fileLimit - reserved);
  return { cap, note: `at most ${cap} connections, not ${wanted}: the open-file limit is ${fileLimit} (raise it with ulimit -n, or lower --max-connections)` };
}
