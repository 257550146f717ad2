/**
 * Open keys bounded on disk: a sandbox with `--open-keys` and
 * `--open-key-workspaces 50` gets 5,000 new keys (a GET each, a create for
 * every tenth). Afterwards at most 50 open keys' workspaces are on disk
 * besides the configured keys', their checkpoints went with them, the
 * process holds a bounded number of descriptors, the configured keys'
 * pets are all there, and each removal is counted in /metrics and logged.
 * With `--open-key-ttl 1`, workspaces left unused go within seconds.
 */
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../support/harness.js';
import { controlOfChild, createPet, DEFAULT_KEY, expectLedgerKept, v1 } from '../support/ledger-calls.js';
import { openDescriptors } from '../support/mounts.js';
import { PetLedger } from '../support/pet-ledger.js';
import { killSandbox, spawnSandbox, stopSandbox, type ChildSandbox } from '../support/spawn.js';

const KEYS = 5000;
const CAP = 50;
const PARALLEL = 8;
/** A configured key besides the default one: its workspace is a file like an open key's, and must stay. */
const TEAM_KEY = 'team-key-of-record';
/** Descriptors beyond the baseline that are not workspaces': sockets of the requests in flight, the log's pipes. */
const MARGIN = 2 * PARALLEL + 10;

const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function dataDir(): string {
  const dir = tempDir('petstore-open-keys-bounded-');
  dirs.push(dir);
  return dir;
}

/** Ids of the workspaces whose snapshot is beside the data file (`db.<id>.json`). */
const snapshots = (dir: string) => readdirSync(dir).flatMap((f) => /^db\.([0-9a-f]{16})\.json$/.exec(f)?.[1] ?? []);

/** The workspace id of a key, as the control plane names it. */
async function idOf(origin: string, key: string): Promise<string> {
  const res = await controlOfChild(origin)('GET', '/checkpoints', { key });
  expect(res.status).toBe(200);
  return (res.body as { workspace: string }).workspace;
}

/** The value of an unlabelled series in /metrics. */
async function metric(origin: string, name: string): Promise<number> {
  const text = await (await fetch(`${origin}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  expect(line, `${name} in /metrics`).toBeDefined();
  return Number(line?.split(' ')[1]);
}

/** A GET with each key, a create with every tenth, PARALLEL at a time; every answer a success. */
async function useEveryKey(sb: ChildSandbox, keys: string[]): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < keys.length) {
      const i = next++;
      const key = keys[i] as string;
      const res = await v1(sb.origin, key, '/pets');
      expect(res.status, `GET with key ${i}: ${res.text}`).toBe(200);
      if (i % 10 === 0) expect((await v1(sb.origin, key, '/pets', { method: 'POST', json: { name: `job ${i}`, categoryId: 1 } })).status).toBe(201);
    }
  };
  await Promise.all(Array.from({ length: PARALLEL }, worker));
}

describe('open keys bounded on disk', () => {
  it(
    `--open-key-workspaces ${CAP}: ${KEYS} new keys leave at most ${CAP} of their workspaces on disk, bounded descriptors, the configured ones whole`,
    { timeout: 600_000 },
    async () => {
      const dir = dataDir();
      const args = ['--open-keys', '--api-keys', `${DEFAULT_KEY},${TEAM_KEY}`, '--count', '2', '--open-key-workspaces', String(CAP), '--log-level', 'info'];
      const keys = Array.from({ length: KEYS }, (_, i) => `ci-job-${i}.${dir.slice(-6)}`);
      const [main, team] = [new PetLedger('main'), new PetLedger('team')];
      let sb: ChildSandbox | undefined;
      try {
        sb = await spawnSandbox(join(dir, 'db.json'), args);
        const pid = sb.child.pid as number;
        const ctl = controlOfChild(sb.origin);
        for (let i = 0; i < 3; i++) {
          expect((await createPet(sb.origin, DEFAULT_KEY, main)).status).toBe(201);
          expect((await createPet(sb.origin, TEAM_KEY, team)).status).toBe(201);
        }
        // The first open key saves a checkpoint: it must go with its workspace.
        const first = keys[0] as string;
        expect((await ctl('POST', '/checkpoints', { key: first, json: { name: 'before' } })).status).toBe(201);
        const firstId = await idOf(sb.origin, first);
        const teamId = await idOf(sb.origin, TEAM_KEY);
        const baseline = openDescriptors(pid);

        await useEveryKey(sb, keys);

        const kept = snapshots(dir).filter((id) => id !== teamId);
        expect(kept.length).toBeLessThanOrEqual(CAP);
        expect(snapshots(dir)).toContain(teamId);
        expect(snapshots(dir)).not.toContain(firstId);
        expect(readdirSync(join(dir, 'db.checkpoints'))).not.toContain(firstId);
        // Snapshot and log of each workspace kept, the default one's, the secret, the lock, the checkpoints' folder.
        expect(readdirSync(dir).length).toBeLessThanOrEqual(2 * (CAP + 2) + 4);
        expect(openDescriptors(pid), `descriptors: ${baseline} before`).toBeLessThanOrEqual(baseline + CAP + MARGIN);

        const removed = KEYS - kept.length;
        expect(await metric(sb.origin, 'petstore_workspaces_removed_total')).toBe(removed);
        await expectLedgerKept(sb.origin, main);
        await expectLedgerKept(sb.origin, team, TEAM_KEY);
        // A removed key comes back to a fresh seeded workspace, as a new key would.
        expect((await v1(sb.origin, first, '/pets')).body).toHaveLength(2);
        expect(await stopSandbox(sb)).toEqual({ code: 0, signal: null });
        // Read once stopped: the log reaches stdout in buffered chunks. The key that came back displaced one more.
        expect(sb.stdout().match(/Removed the workspace [0-9a-f]{16} of an open key/g)?.length).toBe(removed + 1);

        sb = await spawnSandbox(join(dir, 'db.json'), args);
        await expectLedgerKept(sb.origin, main);
        await expectLedgerKept(sb.origin, team, TEAM_KEY);
        expect(await stopSandbox(sb)).toEqual({ code: 0, signal: null });
      } finally {
        await killSandbox(sb);
      }
    },
  );

  it('--open-key-ttl 1: workspaces of open keys left unused are removed within seconds; configured ones stay', { timeout: 60_000 }, async () => {
    const dir = dataDir();
    const args = ['--open-keys', '--api-keys', `${DEFAULT_KEY},${TEAM_KEY}`, '--count', '1', '--open-key-ttl', '1'];
    let sb: ChildSandbox | undefined;
    try {
      sb = await spawnSandbox(join(dir, 'db.json'), args);
      const team = new PetLedger('team');
      expect((await createPet(sb.origin, TEAM_KEY, team)).status).toBe(201);
      const teamId = await idOf(sb.origin, TEAM_KEY);
      for (let i = 0; i < 5; i++)
        expect((await v1(sb.origin, `short-lived-${i}`, '/pets', { method: 'POST', json: { name: 'x', categoryId: 1 } })).status).toBe(201);
      for (let i = 0; i < 100 && snapshots(dir).length > 1; i++) await sleep(100);
      expect(snapshots(dir)).toEqual([teamId]);
      // Counted once its folder is synced, a moment after its files are gone.
      for (let i = 0; i < 50 && (await metric(sb.origin, 'petstore_workspaces_removed_total')) < 5; i++) await sleep(100);
      expect(await metric(sb.origin, 'petstore_workspaces_removed_total')).toBe(5);
      await expectLedgerKept(sb.origin, team, TEAM_KEY);
      expect(await stopSandbox(sb)).toEqual({ code: 0, signal: null });
    } finally {
      await killSandbox(sb);
    }
  });
});
