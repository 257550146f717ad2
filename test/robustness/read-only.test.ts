/**
 * A data folder whose file system turns read-only while the sandbox runs (a
 * tmpfs remounted `ro`): creates answer 503 `service_unavailable` naming
 * the cause, reads keep working, and once the file system is writable again
 * creates succeed without a restart; a restart after a crash gives back
 * every 201.
 *
 * Linux refuses to remount a file system read-only while a file on it is
 * open for writing (EBUSY), so the test waits until the sandbox holds none:
 * `--workspace-idle 1` closes an unused workspace, descriptors included.
 */
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { createPet, DEFAULT_KEY, expectError, expectLedgerKept, expectListConsistent, v1 } from '../support/ledger-calls.js';
import { filesOpenForWriting, mountTmpfs, remount, tmpfsUnavailable, unmountTmpfs } from '../support/mounts.js';
import { PetLedger, type Pet } from '../support/pet-ledger.js';
import { expectSpecValid } from '../support/spec-check.js';
import { killSandbox, spawnSandbox, stopSandbox, type ChildSandbox } from '../support/spawn.js';

const ARGS = ['--count', '5', '--workspace-idle', '1'];

// Mounting a tmpfs needs root (CI runs as root); elsewhere the test cannot make a file system read-only.
const unavailable = tmpfsUnavailable();

/** Remounts `mount` read-only once the sandbox holds no file on it open for writing (waits up to 20 s). */
async function remountReadOnly(sb: ChildSandbox, mount: string): Promise<void> {
  let held: string[] = [];
  let refusal = '';
  for (let waited = 0; waited < 20_000; waited += 250) {
    held = filesOpenForWriting(sb.child.pid as number, mount);
    if (held.length === 0 && !(refusal = remount(mount, 'ro'))) return;
    await sleep(250);
  }
  throw new Error(
    `cannot remount the data folder read-only: ${refusal || `20 s after its last request (--workspace-idle 1) the sandbox still holds ${held.join(', ')} open for writing`}`,
  );
}

async function expectReadsWork(sb: ChildSandbox, ledger: PetLedger, acked: Pet): Promise<void> {
  await expectListConsistent(sb.origin, DEFAULT_KEY, ledger);
  const res = await v1(sb.origin, DEFAULT_KEY, `/pets/${acked.id}`);
  await expectSpecValid('getPet', res);
  expect(res.status).toBe(200);
  expect(res.body).toEqual(acked);
  await expectLedgerKept(sb.origin, ledger);
}

describe('a data folder that turns read-only (tmpfs remounted ro)', () => {
  it.skipIf(unavailable)(
    `answers creates 503 naming read-only, keeps serving reads, and writes again once rw${unavailable ? ` (skipped: ${unavailable})` : ''}`,
    { timeout: 120_000 },
    async () => {
      const mount = mountTmpfs(16 * 1024 * 1024);
      const dataFile = join(mount, 'db.json');
      const ledger = new PetLedger('ro');
      let sb: ChildSandbox | undefined;
      try {
        sb = await spawnSandbox(dataFile, ARGS);
        const first = await createPet(sb.origin, DEFAULT_KEY, ledger);
        expect(first.status).toBe(201);
        expect((await createPet(sb.origin, DEFAULT_KEY, ledger)).status).toBe(201);

        await remountReadOnly(sb, mount);
        try {
          for (let i = 0; i < 2; i += 1) expectError(await createPet(sb.origin, DEFAULT_KEY, ledger), 503, 'service_unavailable', /read-only/i);
          await expectReadsWork(sb, ledger, first.body as Pet);
        } finally {
          expect(remount(mount, 'rw')).toBe('');
        }

        expect((await createPet(sb.origin, DEFAULT_KEY, ledger)).status).toBe(201);
        await expectReadsWork(sb, ledger, first.body as Pet);

        // A crash, then a clean stop: every 201 was on disk when it was sent.
        await killSandbox(sb);
        sb = await spawnSandbox(dataFile, ARGS);
        await expectReadsWork(sb, ledger, first.body as Pet);
        expect(await stopSandbox(sb)).toEqual({ code: 0, signal: null });
        sb = await spawnSandbox(dataFile, ARGS);
        await expectReadsWork(sb, ledger, first.body as Pet);
        expect(await stopSandbox(sb)).toEqual({ code: 0, signal: null });
      } finally {
        await killSandbox(sb);
        unmountTmpfs(mount);
      }
    },
  );
});
