/**
 * Open keys under a lowered descriptor limit (`prlimit --nofile=256`): one
 * create with each of 400 new keys, as many CI jobs would do. Each answer is
 * a 201 or a clear 503 (never a 500, never a dropped connection), the
 * default key keeps working throughout, the process never runs out of
 * descriptors, it shuts down cleanly, and after a restart the control plane
 * gives back every acknowledged pet of a sample of keys. Once with the
 * default workspace settings, once with `--max-workspaces 20
 * --workspace-idle 1`, where idle workspaces close and reopen on demand.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../support/harness.js';
import { createPet, DEFAULT_KEY, expectError, expectLedgerKept, expectListConsistent } from '../support/ledger-calls.js';
import { openDescriptors } from '../support/mounts.js';
import { PetLedger } from '../support/pet-ledger.js';
import { killSandbox, spawnSandbox, stopSandbox, type ChildSandbox } from '../support/spawn.js';

const LIMIT = 256;
const KEYS = 400;
const PARALLEL = 4;
const LIMITED = { wrapper: ['prlimit', `--nofile=${LIMIT}:${LIMIT}`, '--'] };
/** What a refusal may say: too many open files, or all workspaces busy. */
const REFUSAL = /open files|workspace/i;

const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

interface Run {
  keys: string[];
  ledgers: Map<string, PetLedger>;
  main: PetLedger;
  mostDescriptors: number;
}

/** One create per new key, PARALLEL at a time; every 20 keys a create with the default key and a count of descriptors. */
async function createWithEveryKey(sb: ChildSandbox, run: Run): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < run.keys.length) {
      const i = next++;
      const key = run.keys[i] as string;
      const res = await createPet(sb.origin, key, run.ledgers.get(key) as PetLedger);
      if (res.status !== 201) expectError(res, 503, 'service_unavailable', REFUSAL, `key ${i} (${openDescriptors(sb.child.pid as number)} descriptors open)`);
      if (i % 20 !== 0) continue;
      const main = await createPet(sb.origin, DEFAULT_KEY, run.main);
      expect(main.status, `the default key after ${i} keys: ${main.text}`).toBe(201);
      run.mostDescriptors = Math.max(run.mostDescriptors, openDescriptors(sb.child.pid as number));
    }
  };
  await Promise.all(Array.from({ length: PARALLEL }, worker));
}

/** Every eighth key and the last ten: their exports hold exactly what was acknowledged. */
async function expectSampleKept(sb: ChildSandbox, run: Run): Promise<void> {
  const sample = run.keys.filter((_, i) => i % 8 === 0 || i >= run.keys.length - 10);
  for (const key of sample) await expectLedgerKept(sb.origin, run.ledgers.get(key) as PetLedger, key);
  await expectLedgerKept(sb.origin, run.main);
}

describe(`open keys under a limit of ${LIMIT} descriptors`, () => {
  it.each([
    { name: 'default workspace settings', extra: [], reopen: false },
    { name: '--max-workspaces 20 --workspace-idle 1', extra: ['--max-workspaces', '20', '--workspace-idle', '1'], reopen: true },
  ])(
    `$name: ${KEYS} new keys get 201 or a clear 503, the default key keeps working, nothing acknowledged is lost`,
    { timeout: 240_000 },
    async ({ extra, reopen }) => {
      const dir = tempDir('petstore-open-keys-');
      dirs.push(dir);
      const dataFile = join(dir, 'db.json');
      const args = ['--open-keys', '--count', '0', ...extra];
      const keys = Array.from({ length: KEYS }, (_, i) => `ci-job-${i}.${dir.slice(-6)}`);
      const run: Run = { keys, ledgers: new Map(keys.map((k) => [k, new PetLedger('job')])), main: new PetLedger('main'), mostDescriptors: 0 };
      let sb: ChildSandbox | undefined;
      try {
        sb = await spawnSandbox(dataFile, args, LIMITED);
        await createWithEveryKey(sb, run);
        // Refusing every key would pass the checks above; 100 workspaces fit well within the limit.
        expect([...run.ledgers.values()].filter((l) => l.size > 0).length).toBeGreaterThanOrEqual(100);
        expect(run.mostDescriptors).toBeLessThan(LIMIT);
        expect(openDescriptors(sb.child.pid as number)).toBeLessThan(LIMIT);
        if (reopen) {
          // Past the idle time every workspace was closed: the first ones reopen with their pets.
          await sleep(2_500);
          for (const key of keys.slice(0, 10)) await expectListConsistent(sb.origin, key, run.ledgers.get(key) as PetLedger);
          for (const key of keys.slice(0, 10)) await expectLedgerKept(sb.origin, run.ledgers.get(key) as PetLedger, key);
        }
        expect(await stopSandbox(sb)).toEqual({ code: 0, signal: null });

        sb = await spawnSandbox(dataFile, args, LIMITED);
        await expectSampleKept(sb, run);
        expect(await stopSandbox(sb)).toEqual({ code: 0, signal: null });
      } finally {
        await killSandbox(sb);
      }
    },
  );
});
