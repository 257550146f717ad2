/**
 * A data folder the sandbox may not write, for a sandbox running as an
 * ordinary user (`setpriv` to nobody; root would ignore the permissions):
 * writes that need a new file (a reset, a new workspace) answer 503
 * `service_unavailable` naming the cause and change nothing; creates on an
 * already open log may still succeed (and are then durable); once the
 * folder is writable again everything works without a restart. Start-up on
 * an unwritable folder serves reads when the data file exists, and exits 1
 * with a clear message (no stack trace) when it does not.
 */
import { chmodSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  controlOfChild,
  createPet,
  expectError,
  expectLedgerKept,
  expectListConsistent,
  expectRefusedUnchanged,
  type Refusal,
} from '../support/ledger-calls.js';
import { PetLedger } from '../support/pet-ledger.js';
import { createNobodyFolders, nobodyUnavailable } from '../support/nobody.js';
import { killSandbox, SandboxExit, stopSandbox, type ChildSandbox } from '../support/spawn.js';

const MAIN = 'main-key';
const OTHER = 'other-key';
const ARGS = ['--api-keys', `${MAIN},${OTHER}`, '--count', '5'];
const PERMISSION = /permission/i;
const DENIED: Refusal = { status: 503, code: 'service_unavailable', message: PERMISSION };

// Needs root (to switch user and chown) and a repository nobody can read; otherwise the user would bypass the permissions under test.
const unavailable = nobodyUnavailable();
const skipped = unavailable ? ` (skipped: ${unavailable})` : '';

// Folders for nobody (a temporary folder is private to root until opened up), and the sandbox started as nobody in them.
const nobody = createNobodyFolders('petstore-perm-');
const start = (dataFile: string) => nobody.start(dataFile, ARGS);

/** After a crash or a stop: started again, the sandbox keeps what `check` expects, and stops cleanly. */
async function expectKeptOnRestart(dataFile: string, check: (origin: string) => Promise<void>): Promise<void> {
  const sb = await start(dataFile);
  try {
    await check(sb.origin);
    expect(await stopSandbox(sb)).toEqual({ code: 0, signal: null });
  } finally {
    await killSandbox(sb);
  }
}

/** A create that may succeed (an open log) or be refused naming the permission. */
async function createMaybe(sb: ChildSandbox, key: string, ledger: PetLedger): Promise<void> {
  const res = await createPet(sb.origin, key, ledger);
  if (res.status !== 201) expectError(res, 503, 'service_unavailable', PERMISSION);
}

describe('a data folder the sandbox may not write (running as nobody)', () => {
  it.skipIf(unavailable)(`refuses what needs a new file with 503, loses nothing, and works again once writable${skipped}`, { timeout: 120_000 }, async () => {
    const dir = nobody.folder('running');
    const main = new PetLedger('perm');
    let sb: ChildSandbox | undefined;
    try {
      sb = await start(join(dir, 'db.json'));
      for (let i = 0; i < 3; i += 1) expect((await createPet(sb.origin, MAIN, main)).status).toBe(201);
      chmodSync(dir, 0o555);
      try {
        await expectRefusedUnchanged(sb.origin, '/reset', { count: 3 }, DENIED);
        await expectRefusedUnchanged(sb.origin, '/load', { generate: { seed: 3, count: 3 } }, DENIED);
        expectError(await createPet(sb.origin, OTHER, new PetLedger('refused')), 503, 'service_unavailable', PERMISSION);
        for (let i = 0; i < 2; i += 1) await createMaybe(sb, MAIN, main);
        await expectListConsistent(sb.origin, MAIN, main);
        await expectLedgerKept(sb.origin, main);
      } finally {
        chmodSync(dir, 0o755);
      }
      expect((await createPet(sb.origin, MAIN, main)).status).toBe(201);
      expect((await controlOfChild(sb.origin)('POST', '/reset', { key: OTHER, json: { count: 2 } })).status).toBe(200);
      const other = new PetLedger('other');
      expect((await createPet(sb.origin, OTHER, other)).status).toBe(201);

      // A crash, then a clean stop: every 201 was on disk when it was sent.
      await killSandbox(sb);
      await expectKeptOnRestart(join(dir, 'db.json'), async (origin) => {
        await expectLedgerKept(origin, main);
        await expectLedgerKept(origin, other, OTHER);
      });
      await expectKeptOnRestart(join(dir, 'db.json'), (origin) => expectLedgerKept(origin, main));
    } finally {
      await killSandbox(sb);
    }
  });

  it.skipIf(unavailable)(
    `starts on an unwritable folder that holds a data file: reads and creates work, what needs a new file answers 503 until it is writable${skipped}`,
    { timeout: 120_000 },
    async () => {
      const dir = nobody.folder('start-read-only');
      const main = new PetLedger('ro-start');
      let sb: ChildSandbox | undefined = await start(join(dir, 'db.json'));
      try {
        for (let i = 0; i < 2; i += 1) expect((await createPet(sb.origin, MAIN, main)).status).toBe(201);
        expect(await stopSandbox(sb)).toEqual({ code: 0, signal: null });

        chmodSync(dir, 0o555);
        try {
          sb = await start(join(dir, 'db.json'));
          await expectListConsistent(sb.origin, MAIN, main);
          await expectLedgerKept(sb.origin, main);
          // The commit log itself is still writable: a create appends to it, durably (the ledger checks it
          // after the kill below). Only what needs a new file in the folder, like a reset's snapshot, is refused.
          expect((await createPet(sb.origin, MAIN, main)).status).toBe(201);
          await expectRefusedUnchanged(sb.origin, '/reset', { count: 3 }, DENIED);
        } finally {
          chmodSync(dir, 0o755);
        }
        expect((await createPet(sb.origin, MAIN, main)).status).toBe(201);
        await killSandbox(sb);
        await expectKeptOnRestart(join(dir, 'db.json'), (origin) => expectLedgerKept(origin, main));
      } finally {
        await killSandbox(sb);
      }
    },
  );

  it.skipIf(unavailable)(
    `exits 1 with a clear message, no stack trace, on an unwritable folder without a data file${skipped}`,
    { timeout: 60_000 },
    async () => {
      const dir = nobody.folder('empty');
      chmodSync(dir, 0o555);
      const outcome = await start(join(dir, 'db.json')).then(
        async (sb) => {
          await killSandbox(sb);
          return sb;
        },
        (error: unknown) => error,
      );
      expect(outcome).toBeInstanceOf(SandboxExit);
      const exit = outcome as SandboxExit;
      expect(exit.ended.code, exit.out).toBe(1);
      expect(exit.err).toContain(dir);
      expect(exit.err).toMatch(PERMISSION);
      expect(exit.err, 'a stack trace').not.toMatch(/^\s+at /m);
    },
  );
});
