/**
 * A full disk: the data folder on a 4 MiB tmpfs, mostly taken by a filler
 * file. Creates turn from 201 to 507 `insufficient_storage` (never a 201 for
 * a half-written record, never a 500); nothing refused is listed or kept; a
 * reset, a fixture load and a new workspace fail cleanly and change nothing;
 * once space is freed, creates work again without a restart; and a restart
 * after a crash gives back every acknowledged pet. Once with the default compaction, once
 * with `--compact-after 5`, so the snapshot rewrite runs into the full disk
 * too (it must not fail creates whose log append succeeded).
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createPet, expectError, expectLedgerKept, expectListConsistent, expectRefusedUnchanged, type Refusal } from '../support/ledger-calls.js';
import { fill, mountTmpfs, tmpfsUnavailable, unmountTmpfs } from '../support/mounts.js';
import { PetLedger } from '../support/pet-ledger.js';
import { killSandbox, spawnSandbox, stopSandbox, type ChildSandbox } from '../support/spawn.js';

const MAIN = 'main-key';
const OTHER = 'other-key';
const DISK = 4 * 1024 * 1024;
/** Left free by the filler: room for a few creates of NAME_LENGTH, not for many. */
const ROOM = 256 * 1024;
const NAME_LENGTH = 32 * 1024;
const FULL = /full/i;
const NO_SPACE: Refusal = { status: 507, code: 'insufficient_storage', message: FULL };

// Mounting a tmpfs needs root (CI runs as root); elsewhere there is no small disk to fill, so the test cannot run.
const unavailable = tmpfsUnavailable();

/** Creates until the first refusal (bounded); that refusal must be the 507. */
async function createUntilFull(sb: ChildSandbox, ledger: PetLedger): Promise<void> {
  for (let attempt = 0; attempt < 64; attempt += 1) {
    const res = await createPet(sb.origin, MAIN, ledger, NAME_LENGTH);
    if (res.status === 201) continue;
    expectError(res, 507, 'insufficient_storage', FULL);
    return;
  }
  throw new Error(`64 creates of ${NAME_LENGTH} characters were all answered 201 with ${ROOM} bytes free`);
}

async function onFullDisk(mount: string, args: string[], main: PetLedger, other: PetLedger): Promise<void> {
  const dataFile = join(mount, 'db.json');
  let sb: ChildSandbox | undefined = await spawnSandbox(dataFile, args);
  try {
    for (let i = 0; i < 2; i += 1) expect((await createPet(sb.origin, MAIN, main, NAME_LENGTH)).status).toBe(201);
    fill(join(mount, 'filler'), ROOM);
    await createUntilFull(sb, main);
    // Further creates: stored (201) if some room is left, else the same 507; never anything else.
    for (let i = 0; i < 3; i += 1) {
      const res = await createPet(sb.origin, MAIN, main, NAME_LENGTH);
      if (res.status !== 201) expectError(res, 507, 'insufficient_storage', FULL);
    }
    await expectListConsistent(sb.origin, MAIN, main);
    await expectLedgerKept(sb.origin, main);

    fill(join(mount, 'filler-rest'));
    await expectRefusedUnchanged(sb.origin, '/reset', { count: 500 }, NO_SPACE);
    await expectRefusedUnchanged(sb.origin, '/load', { generate: { seed: 2, count: 500 } }, NO_SPACE);
    // A workspace opened for the first time needs a file: refused the same way, and nothing of it kept.
    expectError(await createPet(sb.origin, OTHER, other), 507, 'insufficient_storage', FULL);

    rmSync(join(mount, 'filler'));
    rmSync(join(mount, 'filler-rest'));
    for (let i = 0; i < 2; i += 1) expect((await createPet(sb.origin, MAIN, main, NAME_LENGTH)).status).toBe(201);
    expect((await createPet(sb.origin, OTHER, other)).status).toBe(201);
    await expectLedgerKept(sb.origin, main);
    await expectLedgerKept(sb.origin, other, OTHER);

    // A crash, not a clean stop: a 201 must have been on disk when it was sent, not only after a final flush.
    await killSandbox(sb);
    sb = await spawnSandbox(dataFile, args);
    await expectLedgerKept(sb.origin, main);
    await expectLedgerKept(sb.origin, other, OTHER);
    expect((await createPet(sb.origin, MAIN, main)).status).toBe(201);
    expect(await stopSandbox(sb)).toEqual({ code: 0, signal: null });
    sb = await spawnSandbox(dataFile, args);
    await expectLedgerKept(sb.origin, main);
    expect(await stopSandbox(sb)).toEqual({ code: 0, signal: null });
  } finally {
    await killSandbox(sb);
  }
}

describe('a full disk (a 4 MiB tmpfs under the data folder)', () => {
  it.skipIf(unavailable).each([
    { name: 'default compaction', extra: [] },
    { name: '--compact-after 5', extra: ['--compact-after', '5'] },
  ])(
    `$name: 507 insufficient_storage, nothing refused kept, works again once space is freed${unavailable ? ` (skipped: ${unavailable})` : ''}`,
    { timeout: 120_000 },
    async ({ extra }) => {
      const mount = mountTmpfs(DISK);
      try {
        await onFullDisk(mount, ['--api-keys', `${MAIN},${OTHER}`, '--count', '10', ...extra], new PetLedger('full'), new PetLedger('other'));
      } finally {
        unmountTmpfs(mount);
      }
    },
  );
});
