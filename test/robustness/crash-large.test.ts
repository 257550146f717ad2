/**
 * Durability under SIGKILL in the middle of large appends: with the body
 * limit raised to 8 MiB, a few writers POST pets with ~4 MiB names, and the
 * sandbox is killed the moment its commit log starts to grow (so the kill
 * tends to land while a record of several MiB is half written), or at a
 * later append. Each restart must cut the torn record off: otherwise the
 * next append lands after it and a later start refuses the log. After every
 * restart, every 201 is back field for field, no id names two pets, and ids
 * are never reused.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { resetBeforeAnswer } from '../../contracts/dredd/retry-on-reset.js';
import { tempDir } from '../support/harness.js';
import { createPet, DEFAULT_KEY, expectLedgerKept, exportWorkspace } from '../support/ledger-calls.js';
import { PetLedger } from '../support/pet-ledger.js';
import { killSandbox, spawnSandbox, stopSandbox, type ChildSandbox } from '../support/spawn.js';
import { killOnGrowth, type GrowthKiller } from '../support/growth-killer.js';

const ARGS = ['--body-limit', '8388608', '--count', '5'];
const NAME_LENGTH = 4 * 1024 * 1024 - 512;
const WRITERS = 3;
/** Creates per writer and round at most: the kill comes long before, unless the log never grows. */
const MAX_PER_WRITER = 10;
/**
 * When to kill: at the first growth of the log once `acks` creates of the
 * round are acknowledged. With `acks: 0` the torn record is the first of
 * the round, often the only thing in the log after a compaction: the case
 * a skip-the-last-line recovery leaves in place. Such a kill lands inside
 * the write about half the time (the kernel copies a large write in 2 MiB
 * steps and stops between two at a kill), so there are several such rounds;
 * they are cheap (one pet at most each).
 */
const ROUNDS = [{ acks: 0 }, { acks: 0 }, { acks: 3 }, { acks: 0 }, { acks: 0 }, { acks: 0 }, { acks: 0 }];

const dir = tempDir('petstore-crash-large-');
const dataFile = join(dir, 'db.json');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Whether a request failed because its connection was closed as it was sent (EPIPE) or reset, before any answer. */
const closedAsSent = (error: unknown): boolean => resetBeforeAnswer(error) || (error as { cause?: { code?: unknown } }).cause?.code === 'EPIPE';

/** WRITERS loops of large creates until the sandbox is gone; a create whose connection died has no known outcome. */
async function writeUntilKilled(sb: ChildSandbox, ledger: PetLedger, killer: GrowthKiller, armAt: number, highestBefore: number): Promise<void> {
  if (ledger.size >= armAt) killer.arm();
  const writer = async () => {
    for (let n = 0; n < MAX_PER_WRITER; n += 1) {
      let res;
      try {
        res = await createPet(sb.origin, DEFAULT_KEY, ledger, NAME_LENGTH);
      } catch (error) {
        if (killer.fired()) return; // Killed: whatever was in flight was never acknowledged.
        // Not killed, and not answered: a kept-alive connection the sandbox closed when idle, picked for this create as
        // it closed (this process's loop, busy with multi-MiB bodies, runs the client's idle timer late). The create's
        // outcome is unknown, as a killed one's is; a sandbox that really died refuses the next create and fails the test.
        if (!closedAsSent(error)) throw error;
        continue;
      }
      expect(res.status, res.text.slice(0, 300)).toBe(201);
      // Ids are never reused: not across restarts, not within a round.
      expect((res.body as { id: number }).id).toBeGreaterThan(highestBefore);
      if (ledger.size >= armAt) killer.arm();
    }
  };
  await Promise.all(Array.from({ length: WRITERS }, writer));
  expect(killer.fired(), `${ledger.size} creates acknowledged, yet the commit log never grew`).toBe(true);
}

describe('crash safety with large appends (SIGKILL while a multi-MiB record is written)', () => {
  it('cuts torn records off at start-up and keeps every acknowledged pet', { timeout: 300_000 }, async () => {
    const ledger = new PetLedger('big');
    let highest = 0;
    for (const { acks } of ROUNDS) {
      const sb = await spawnSandbox(dataFile, ARGS);
      try {
        await expectLedgerKept(sb.origin, ledger);
        const { pets, nextId } = await exportWorkspace(sb.origin);
        highest = Math.max(highest, ...pets.map((p) => p.id));
        expect(nextId).toBeGreaterThan(highest);

        const killer = killOnGrowth(`${dataFile}.log`, sb.child.pid as number);
        try {
          await writeUntilKilled(sb, ledger, killer, ledger.size + acks, highest);
        } finally {
          await killer.stop();
        }
        expect(await sb.ended).toEqual({ code: null, signal: 'SIGKILL' });
      } finally {
        await killSandbox(sb);
      }
    }

    // A last start: everything is there, a create works, and a clean stop and start keep it all.
    let sb: ChildSandbox | undefined = await spawnSandbox(dataFile, ARGS);
    try {
      await expectLedgerKept(sb.origin, ledger);
      expect((await createPet(sb.origin, DEFAULT_KEY, ledger, 1024)).status).toBe(201);
      expect(await stopSandbox(sb)).toEqual({ code: 0, signal: null });
      sb = await spawnSandbox(dataFile, ARGS);
      await expectLedgerKept(sb.origin, ledger);
      expect(await stopSandbox(sb)).toEqual({ code: 0, signal: null });
    } finally {
      await killSandbox(sb);
    }
  });
});
