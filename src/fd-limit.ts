import { readFileSync } from 'node:fs';

/**
 * The process's limit on open file descriptors (its soft `RLIMIT_NOFILE`,
 * which Node raises to the hard limit at start-up), read from
 * `/proc/self/limits`; undefined where that file does not exist.
 */
export function openFileLimit(read: () => string = () => readFileSync('/proc/self/limits', 'utf8')): number | undefined {
  try {
    const match = /^Max open files\s+(\d+|unlimited)/m.exec(read());
    return match?.[1] && match[1] !== 'unlimited' ? Number(match[1]) : undefined;
  } catch {
    return undefined;
  }
}

/** Descriptors kept for everything but workspaces and connections: stdio, the listener, epoll, files read at start-up. */
export const RESERVED_DESCRIPTORS = 64;

/**
 * The most of something that may each hold a descriptor, given a share of
 * the limit left after the reserve: a configured cap that the limit could not
 * honour would end in EMFILE failures instead of a clean answer.
 */
export function capByDescriptors(configured: number, limit: number | undefined, share: number): number {
  if (limit === undefined) return configured;
  return Math.max(1, Math.min(configured, Math.floor((limit - RESERVED_DESCRIPTORS) * share)));
}
