import { readFileSync } from 'node:fs';

/**
 * Descriptors kept for everything but client connections and workspace
 * logs: standard streams, the event loop, the listening socket, files read
 * at start-up, temp files of a snapshot being written.
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

/** How many connections and open workspaces the sandbox allows, and why either was lowered. */
export interface DescriptorCaps {
  connections: number;
  workspaces: number;
  notes: string[];
}

/**
 * Caps that fit the open-file limit. Past that limit every new file or
 * socket fails, data files included, so what is left after `reserved` is
 * shared: each connection holds a socket, each open workspace may hold its
 * log. A configured cap that does not fit its half is lowered, with a note.
 */
export function descriptorCaps(
  wanted: { connections: number; workspaces: number },
  fileLimit: number | undefined,
  reserved = RESERVED_DESCRIPTORS,
): DescriptorCaps {
  const caps: DescriptorCaps = { ...wanted, notes: [] };
  if (fileLimit === undefined || fileLimit - reserved >= wanted.connections + wanted.workspaces) return caps;
  const half = Math.max(1, Math.floor((fileLimit - reserved) / 2));
  const advice = `the open-file limit is ${fileLimit} (raise it with ulimit -n, or lower`;
  if (wanted.connections > half) {
    caps.connections = half;
    caps.notes.push(`at most ${half} connections, not ${wanted.connections}: ${advice} --max-connections)`);
  }
  if (wanted.workspaces > half) {
    caps.workspaces = half;
    caps.notes.push(`at most ${half} open workspaces, not ${wanted.workspaces}: ${advice} --max-workspaces)`);
  }
  return caps;
}
