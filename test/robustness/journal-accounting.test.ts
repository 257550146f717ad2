/**
 * The journal holds what it says it holds. Rejected requests of about
 * 4 KiB, each with a key of its own (with --open-keys every new token is a
 * journal), are journaled by a real sandbox over real HTTP:
 *
 * - in a process of its own, the heap they keep once collected is what the
 *   journal accounts for them (at most a quarter more, never less beyond a
 *   tenth of noise), whatever the width of the text (ASCII, Latin-1, beyond
 *   Latin-1) and for tiny bodies too: bodies are kept as text, and the
 *   budget counts that text as V8 stores it;
 * - in a child sandbox with the default budget, 64 MB of them grow its
 *   resident memory by at most 3 times what was received, and the journal
 *   stays within its budget.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { createControlClient } from '../../src/control/client.js';
import { tempDir } from '../support/harness.js';
import { killSandbox, ROOT, spawnSandbox, stopSandbox, type ChildSandbox } from '../support/spawn.js';
import { sendRejected } from '../support/rejected-load.js';

const PROBE = fileURLToPath(new URL('journal-heap-probe.ts', import.meta.url));

/** Bodies that validation rejects (categoryId is not an integer), so no workspace is opened. */
const BODIES = {
  ascii: JSON.stringify({ name: 'x'.repeat(4000), categoryId: 'not a number' }),
  latin1: JSON.stringify({ name: 'é'.repeat(2000), categoryId: 'not a number' }),
  cyrillic: JSON.stringify({ name: 'ж'.repeat(2000), categoryId: 'not a number' }),
  small: JSON.stringify({ name: 'Rex', categoryId: 'not a number' }),
};
describe('the heap a journal entry keeps, against what the journal accounts', () => {
  const COUNT = 3_000;

  /** Heap kept and bytes accounted per request, in a sandbox of its own journaling `journalSize` entries a key (journal-heap-probe.ts). */
  function perRequest(body: string, journalSize: number): { heap: number; accounted: number } {
    const out = execFileSync(process.execPath, ['--expose-gc', '--import', 'tsx', PROBE, String(COUNT), String(journalSize)], {
      input: body,
      cwd: ROOT,
      encoding: 'utf8',
    });
    return JSON.parse(out.trim().split('\n').pop() ?? '') as { heap: number; accounted: number };
  }

  it.each(Object.keys(BODIES) as (keyof typeof BODIES)[])('a %s body: accounted as the heap it keeps, up to a quarter more', { timeout: 120_000 }, (kind) => {
    const body = BODIES[kind];
    // Everything else a request leaves (caches of keys, sockets) is the same without a journal.
    const without = perRequest(body, 0);
    const journaled = perRequest(body, 200);
    const held = journaled.heap - without.heap;
    expect(without.accounted).toBe(0);
    const context = JSON.stringify({ held, accounted: journaled.accounted, without: without.heap });
    expect(journaled.accounted, context).toBeGreaterThanOrEqual(0.9 * held);
    expect(journaled.accounted, context).toBeLessThanOrEqual(1.25 * held);
  });
});

describe('resident memory under 64 MB of rejected 4 KiB requests, with the default journal budget', () => {
  const REQUESTS = 16_000;
  const BUDGET = 32 * 1024 * 1024;
  let sb: ChildSandbox | undefined;
  afterAll(() => killSandbox(sb));

  /** Resident memory once the process has been idle a while: the lowest of a few readings of /proc/<pid>/status. */
  async function settledRss(pid: number): Promise<number> {
    let lowest = Infinity;
    for (let i = 0; i < 12; i++) {
      await sleep(500);
      const kb = Number(/^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
      lowest = Math.min(lowest, kb * 1024);
    }
    return lowest;
  }

  it('grow by at most 3 times the bytes received, the journal within its budget', { timeout: 180_000 }, async () => {
    sb = await spawnSandbox(join(tempDir('petstore-journal-rss-'), 'db.json'), ['--open-keys', '--count', '0']);
    const pid = sb.child.pid as number;
    // Warm up with a few thousand, so that what follows is the journal's growth, not start-up's.
    await sendRejected(sb.origin, BODIES.ascii, 'warm', 4_000);
    const before = await settledRss(pid);
    await sendRejected(sb.origin, BODIES.ascii, 'load', REQUESTS);
    const after = await settledRss(pid);

    const received = REQUESTS * Buffer.byteLength(BODIES.ascii);
    const control = createControlClient({ origin: sb.origin, adminToken: 'sandbox-admin' });
    const { memory } = await control.call('readJournal', { query: { limit: 0 } });
    const context = JSON.stringify({ before, after, received, memory });
    expect(after - before, context).toBeLessThanOrEqual(3 * received);
    expect(memory).toMatchObject({ budget: BUDGET, kept: expect.any(Number) as unknown });
    expect(memory.bytes).toBeLessThanOrEqual(BUDGET);
    // The budget is spent: the journal keeps as many entries as it says fit, and no more.
    expect(memory.bytes).toBeGreaterThan(BUDGET - 8 * 1024);
    expect(memory.kept + memory.evicted).toBe(REQUESTS + 4_000);
    expect(await stopSandbox(sb)).toEqual({ code: 0, signal: null });
  });
});
