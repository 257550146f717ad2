/**
 * Clients that give up: a request sent and its connection dropped after a
 * delay, whatever was (or was not) answered by then. For the tests of what
 * the sandbox releases when a client leaves while its request waits.
 */
import { createHook } from 'node:async_hooks';
import { connect } from 'node:net';
import { inject } from 'vitest';
import { onPostgres } from './harness.js';
import { createDatabase, postgresUrl } from './postgres.js';

/** `fetch(url, init)`, aborted after `ms`; resolves once the connection is dropped or the answer read, never rejects. */
export async function abandonFetch(url: string, ms: number, init: RequestInit = {}): Promise<void> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), ms);
  try {
    const res = await fetch(url, { ...init, signal: controller.signal });
    await res.text();
  } catch {
    // aborted: what this client meant to do
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Sends `head` and the first `partialBody` bytes on a raw connection, then
 * destroys it after `ms` (a body that never arrives whole, a client that
 * leaves mid-wait); resolves once it is closed.
 */
export function abandonRaw(port: number, head: string, ms: number, partialBody = ''): Promise<void> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1' }, () => {
      socket.write(head + partialBody);
      setTimeout(() => socket.destroy(), ms);
    });
    socket.on('error', () => undefined);
    socket.on('close', () => resolve());
  });
}

/** `--store` for a spawned sandbox on the run's backend: nothing (its data file), or a fresh database. */
export async function runStoreArgs(): Promise<string[]> {
  if (!onPostgres) return [];
  const port = inject('postgresPort');
  return ['--store', postgresUrl(port, await createDatabase(port, 'abandon'))];
}

/** What keeps this process alive now (`process.getActiveResourcesInfo()`): each kind with its count. */
export function activeResources(): Map<string, number> {
  const counts = new Map<string, number>();
  for (const kind of process.getActiveResourcesInfo()) counts.set(kind, (counts.get(kind) ?? 0) + 1);
  return counts;
}

/** The resources held beyond `baseline` (kind: how many more), once none is or `withinMs` has passed; only those of a kind `only` names or takes. */
export async function heldBeyond(
  baseline: Map<string, number>,
  withinMs: number,
  only?: string | ((kind: string) => boolean),
): Promise<Record<string, number>> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const extra: Record<string, number> = {};
    for (const [kind, count] of activeResources()) {
      const more = count - (baseline.get(kind) ?? 0);
      if (more > 0 && (only === undefined || (typeof only === 'string' ? kind === only : only(kind)))) extra[kind] = more;
    }
    if (Object.keys(extra).length === 0 || Date.now() > deadline) return extra;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A timer as Node keeps it: whether it holds the process, and whether it has fired or been cleared. */
interface NodeTimer {
  hasRef(): boolean;
  _destroyed?: boolean;
}

/**
 * The timers made from now on, followed one by one: a count against a
 * baseline misses one left behind when another, of the baseline, ends
 * meanwhile. `pending` waits up to `withinMs` for every one that holds the
 * process to have fired or been cleared, and says how many still do.
 */
export function trackTimers(): { pending(withinMs: number): Promise<number>; stop(): void } {
  const timers = new Map<number, NodeTimer>();
  const hook = createHook({
    init(id, type, _trigger, resource) {
      if (type === 'Timeout') timers.set(id, resource as NodeTimer);
    },
    destroy: (id) => void timers.delete(id),
  }).enable();
  const holding = () => [...timers.values()].filter((timer) => timer.hasRef() && timer._destroyed !== true).length;
  return {
    async pending(withinMs) {
      const deadline = Date.now() + withinMs;
      for (let left = holding(); ; left = holding()) {
        if (left === 0 || Date.now() > deadline) return left;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    stop: () => void hook.disable(),
  };
}
