/**
 * Per-workspace quotas: the create (or reset, or fixture load) that would
 * take a workspace past `--quota-pets` or `--quota-bytes` answers 507
 * `quota_exceeded` and changes nothing; a workspace at its quota still
 * exports, shuts down cleanly and restarts with everything acknowledged.
 * Bytes count each pet's JSON text (UTF-8), summed over the workspace.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../support/harness.js';
import {
  createPet,
  DEFAULT_KEY,
  expectError,
  expectLedgerKept,
  expectListConsistent,
  expectRefusedUnchanged,
  exportWorkspace,
  type Refusal,
} from '../support/ledger-calls.js';
import { PetLedger, type Pet } from '../support/pet-ledger.js';
import { killSandbox, spawnSandbox, stopSandbox, type ChildSandbox } from '../support/spawn.js';

const QUOTA = /quota/i;
const OVER_QUOTA: Refusal = { status: 507, code: 'quota_exceeded', message: QUOTA };
const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function dataFileIn(prefix: string): string {
  const dir = tempDir(prefix);
  dirs.push(dir);
  return join(dir, 'db.json');
}

/** SIGTERM exits 0; a restart gives back the ledger; SIGTERM again exits 0. */
async function expectRestartKeeps(sb: ChildSandbox, dataFile: string, args: string[], ledger: PetLedger): Promise<void> {
  expect(await stopSandbox(sb)).toEqual({ code: 0, signal: null });
  const again = await spawnSandbox(dataFile, args);
  try {
    await expectLedgerKept(again.origin, ledger);
    expect(await stopSandbox(again)).toEqual({ code: 0, signal: null });
  } finally {
    await killSandbox(again);
  }
}

describe('per-workspace quotas', () => {
  it('--quota-pets 10: the 11th create, a reset or a load past it answer 507 quota_exceeded and store nothing', { timeout: 90_000 }, async () => {
    const dataFile = dataFileIn('petstore-quota-pets-');
    const args = ['--quota-pets', '10', '--count', '0'];
    const ledger = new PetLedger('quota');
    const sb = await spawnSandbox(dataFile, args);
    try {
      for (let i = 0; i < 10; i += 1) expect((await createPet(sb.origin, DEFAULT_KEY, ledger)).status).toBe(201);
      const before = await exportWorkspace(sb.origin);
      expectError(await createPet(sb.origin, DEFAULT_KEY, ledger), 507, 'quota_exceeded', QUOTA);
      expect((await exportWorkspace(sb.origin)).text === before.text, 'the refused create changed the export').toBe(true);
      expect(await expectListConsistent(sb.origin, DEFAULT_KEY, ledger)).toHaveLength(10);

      await expectRefusedUnchanged(sb.origin, '/reset', { count: 11 }, OVER_QUOTA);
      await expectRefusedUnchanged(sb.origin, '/load', { generate: { seed: 4, count: 11 } }, OVER_QUOTA);
      await expectRefusedUnchanged(sb.origin, '/load', { mode: 'append', pets: [{ id: 500, name: 'one too many', categoryId: 1 }] }, OVER_QUOTA);
      await expectRestartKeeps(sb, dataFile, args, ledger);
    } finally {
      await killSandbox(sb);
    }
  });

  it('--quota-bytes 8 MiB with 1 MiB names: creates until 507, then export, shutdown and restart give everything back', { timeout: 120_000 }, async () => {
    const quota = 8 * 1024 * 1024;
    const dataFile = dataFileIn('petstore-quota-bytes-');
    const args = ['--quota-bytes', String(quota), '--body-limit', String(2 * 1024 * 1024), '--count', '0'];
    const ledger = new PetLedger('bytes');
    const sb = await spawnSandbox(dataFile, args);
    try {
      let stored = 0;
      let refused: Awaited<ReturnType<typeof createPet>> | undefined;
      for (let i = 0; i < 12 && !refused; i += 1) {
        const res = await createPet(sb.origin, DEFAULT_KEY, ledger, 1024 * 1024);
        if (res.status === 201) stored += Buffer.byteLength(JSON.stringify(res.body));
        else refused = res;
      }
      expect(refused, '12 creates of 1 MiB each were all stored under an 8 MiB quota').toBeDefined();
      expectError(refused as NonNullable<typeof refused>, 507, 'quota_exceeded', QUOTA);
      // The refusal is where the quota says: what is stored fits, one more pet would not.
      expect(stored).toBeLessThanOrEqual(quota);
      const { pets, nextId } = await exportWorkspace(sb.origin);
      expect(stored + Buffer.byteLength(JSON.stringify({ id: nextId, ...refused?.sent }))).toBeGreaterThan(quota);
      expect(pets.reduce((sum: number, p: Pet) => sum + Buffer.byteLength(JSON.stringify(p)), 0)).toBe(stored);
      const big = Array.from({ length: 9 }, (_, i) => ({ id: i + 1, name: 'x'.repeat(1024 * 1024), categoryId: 1 }));
      await expectRefusedUnchanged(sb.origin, '/load', { pets: big }, OVER_QUOTA);
      await expectLedgerKept(sb.origin, ledger);
      await expectRestartKeeps(sb, dataFile, args, ledger);
    } finally {
      await killSandbox(sb);
    }
  });
});
