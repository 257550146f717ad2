/**
 * Open keys bounded in the database: an instance with `--open-keys` and
 * `--open-key-workspaces 50` gets 5,000 new keys (a GET each). Afterwards at
 * most 50 open keys' workspaces are rows of petstore_workspaces, nothing is
 * left of the removed ones (pets, checkpoints, journal, faults), the
 * configured keys' pets are all there, and each removal is counted in
 * /metrics and logged. With a short `--open-key-ttl`, workspaces left unused
 * go within seconds, but not one whose key another instance has configured;
 * one used through another instance stays, one held by a request of the
 * removing instance stays, and one removed by one instance is served fresh
 * by the other, never as it was.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { controlOfChild, createPet, DEFAULT_KEY, expectLedgerKept, v1 } from '../support/ledger-calls.js';
import { startSandbox } from '../../src/server/sandbox.js';
import { testConfig } from '../support/harness.js';
import { PetLedger } from '../support/pet-ledger.js';
import { stopSandbox } from '../support/spawn.js';
import { freshStore, postgresForFile, startInstance, stopInstances, type Instance } from '../support/shared-sandboxes.js';

const KEYS = 5000;
const CAP = 50;
const PARALLEL = 8;
const TEAM_KEY = 'team-key-of-record';
const CONFIGURED = ['--api-keys', `${DEFAULT_KEY},${TEAM_KEY}`];
/** A workspace unused for 10 s may go (IN_USE_GRACE_MS), checked every 4 s: generous room on a busy machine. */
const SETTLE_MS = 90_000;

let server: Awaited<ReturnType<typeof postgresForFile>>;
beforeAll(async () => {
  server = await postgresForFile();
}, 180_000);
afterAll(() => server?.stop());

/** One query on the database at `url`. */
async function query<T extends pg.QueryResultRow>(url: string, sql: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql, values)).rows;
  } finally {
    await client.end();
  }
}

const openKeyRows = async (url: string) => Number((await query<{ n: string }>(url, 'SELECT count(*) AS n FROM petstore_workspaces WHERE open_key'))[0]?.n);
const exists = async (url: string, id: string) => (await query(url, 'SELECT 1 FROM petstore_workspaces WHERE id = $1', [id])).length === 1;

/** Polls `check` until it holds or SETTLE_MS pass. */
async function until(check: () => Promise<boolean>): Promise<void> {
  for (const end = Date.now() + SETTLE_MS; Date.now() < end && !(await check());) await sleep(250);
}

/** The value of an unlabelled series in /metrics. */
async function metric(origin: string, name: string): Promise<number> {
  const text = await (await fetch(`${origin}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  expect(line, `${name} in /metrics`).toBeDefined();
  return Number(line?.split(' ')[1]);
}

/** The workspace id of a key, as the control plane names it. */
async function idOf(origin: string, key: string): Promise<string> {
  const res = await controlOfChild(origin)('GET', '/checkpoints', { key });
  expect(res.status).toBe(200);
  return (res.body as { workspace: string }).workspace;
}

const NOTHING_LEFT = { petstore_pets: 0, petstore_checkpoints: 0, petstore_journal: 0, petstore_faults: 0, journalBytesMiscounted: 0 };

/** Rows of the removed workspaces' data left behind, by table, and the journal's total less what it holds. */
async function orphans(url: string): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of ['petstore_pets', 'petstore_checkpoints', 'petstore_journal', 'petstore_faults']) {
    const rows = await query<{ n: string }>(
      url,
      `SELECT count(*) AS n FROM ${table} t WHERE NOT EXISTS (SELECT 1 FROM petstore_workspaces w WHERE w.id = t.workspace)`,
    );
    counts[table] = Number(rows[0]?.n);
  }
  // The journal's running total still matches what it holds.
  const [total] = await query<{ kept: string; sum: string }>(
    url,
    'SELECT (SELECT bytes FROM petstore_journal_total) AS kept, (SELECT coalesce(sum(bytes), 0) FROM petstore_journal) AS sum',
  );
  counts.journalBytesMiscounted = Number(total?.kept) - Number(total?.sum);
  return counts;
}

describe('open keys bounded in the database', () => {
  it(
    `--open-key-workspaces ${CAP}: ${KEYS} new keys leave at most ${CAP} of their workspaces, nothing of the others, the configured ones whole`,
    { timeout: 900_000 },
    async () => {
      const url = await freshStore(server.port);
      let sb: Instance | undefined;
      try {
        sb = await startInstance(url, ['--open-keys', ...CONFIGURED, '--count', '2', '--open-key-workspaces', String(CAP), '--log-level', 'info']);
        const origin = sb.child.origin;
        const [main, team] = [new PetLedger('main'), new PetLedger('team')];
        for (let i = 0; i < 3; i++) {
          expect((await createPet(origin, DEFAULT_KEY, main)).status).toBe(201);
          expect((await createPet(origin, TEAM_KEY, team)).status).toBe(201);
        }
        const keys = Array.from({ length: KEYS }, (_, i) => `ci-job-${i}`);
        // The first open key saves a checkpoint and a fault: they must go with its workspace.
        const first = keys[0] as string;
        expect((await sb.ctl('POST', '/checkpoints', { key: first, json: { name: 'before' } })).status).toBe(201);
        expect((await sb.ctl('POST', '/faults', { key: first, json: { operationId: 'getPet', status: 500 } })).status).toBe(201);
        const firstId = await idOf(origin, first);

        let next = 0;
        const worker = async () => {
          while (next < keys.length) {
            const i = next++;
            const res = await v1(origin, keys[i] as string, '/pets');
            expect(res.status, `GET with key ${i}: ${res.text}`).toBe(200);
          }
        };
        await Promise.all(Array.from({ length: PARALLEL }, worker));

        // Those used in the last seconds stay a moment (they may be in use through another instance); then the cap holds.
        await until(async () => (await openKeyRows(url)) <= CAP);
        const kept = await openKeyRows(url);
        expect(kept).toBeLessThanOrEqual(CAP);
        expect(await exists(url, firstId)).toBe(false);
        expect(await orphans(url)).toEqual(NOTHING_LEFT);
        const rows = await query<{ n: string }>(url, 'SELECT count(*) AS n FROM petstore_workspaces');
        expect(Number(rows[0]?.n)).toBe(kept + 2);
        const removed = KEYS - kept;
        expect(await metric(origin, 'petstore_workspaces_removed_total')).toBe(removed);
        await expectLedgerKept(origin, main);
        await expectLedgerKept(origin, team, TEAM_KEY);
        // A removed key comes back to a fresh seeded workspace, without its checkpoint.
        expect((await v1(origin, first, '/pets')).body).toHaveLength(2);
        expect((await sb.ctl('GET', '/checkpoints', { key: first })).body).toMatchObject({ checkpoints: [] });
        // It displaces the least recently used one, once that is past the grace.
        await until(async () => (await openKeyRows(url)) <= CAP);
        const all = KEYS + 1 - (await openKeyRows(url));
        expect(await metric(origin, 'petstore_workspaces_removed_total')).toBe(all);
        expect(await stopSandbox(sb.child)).toEqual({ code: 0, signal: null });
        expect(sb.child.stdout().match(/Removed the workspace [0-9a-f]{16} of an open key from the database/g)?.length).toBe(all);
      } finally {
        await stopInstances(sb);
      }
    },
  );

  it('--open-key-ttl 1: workspaces of open keys left unused are removed within seconds; configured ones stay', { timeout: 180_000 }, async () => {
    const url = await freshStore(server.port);
    let sb: Instance | undefined;
    let other: Instance | undefined;
    try {
      sb = await startInstance(url, ['--open-keys', ...CONFIGURED, '--count', '1', '--open-key-ttl', '1']);
      const origin = sb.child.origin;
      const team = new PetLedger('team');
      expect((await createPet(origin, TEAM_KEY, team)).status).toBe(201);
      for (let i = 0; i < 5; i++)
        expect((await v1(origin, `short-lived-${i}`, '/pets', { method: 'POST', json: { name: 'x', categoryId: 1 } })).status).toBe(201);
      // One more open key here, configured in another instance (without --open-keys): once used there, it is kept.
      const promoted = new PetLedger('promoted');
      expect((await createPet(origin, 'promoted-key', promoted)).status).toBe(201);
      expect(await openKeyRows(url)).toBe(6);
      other = await startInstance(url, ['--api-keys', `${DEFAULT_KEY},promoted-key`]);
      await expectLedgerKept(other.child.origin, promoted, 'promoted-key');
      expect(await openKeyRows(url)).toBe(5);
      await until(async () => (await openKeyRows(url)) === 0);
      expect(await openKeyRows(url)).toBe(0);
      expect(await metric(origin, 'petstore_workspaces_removed_total')).toBe(5);
      await expectLedgerKept(origin, team, TEAM_KEY);
      await expectLedgerKept(origin, promoted, 'promoted-key');
      expect(await orphans(url)).toEqual(NOTHING_LEFT);
    } finally {
      await stopInstances(sb, other);
    }
  });

  it(
    'two instances: one used through B stays while A removes the unused; one A removed is served fresh by B, never as it was',
    { timeout: 240_000 },
    async () => {
      const url = await freshStore(server.port);
      let a: Instance | undefined;
      let b: Instance | undefined;
      try {
        // Only A removes soon: B keeps its workspaces a day.
        a = await startInstance(url, ['--open-keys', ...CONFIGURED, '--count', '3', '--open-key-ttl', '1']);
        b = await startInstance(url, ['--open-keys', ...CONFIGURED, '--count', '3']);
        const [ao, bo] = [a.child.origin, b.child.origin];
        const list = async (origin: string, key: string) => ((await v1(origin, key, '/pets')).body as { id: number; name: string }[]).map((p) => p.name);
        const seeded = await list(bo, 'seeded-reference');
        // Each key gets a pet through B, and B reads it twice (the second may be answered from what B kept).
        const keys = ['gone-then-back-through-a', 'gone-then-back-through-b', 'kept-busy-through-b'];
        for (const key of keys) {
          expect((await v1(bo, key, '/pets', { method: 'POST', json: { name: `only-in-${key}`, categoryId: 1 } })).status).toBe(201);
          for (let i = 0; i < 2; i++) expect(await list(bo, key)).toEqual([...seeded, `only-in-${key}`]);
        }
        const [first, second, busy] = await Promise.all(keys.map((key) => idOf(bo, key)));
        // B keeps using one key, a little more often than once a second, while A removes those left unused.
        let using = true;
        const busyLoop = (async () => {
          while (using) {
            expect(await list(bo, keys[2] as string)).toEqual([...seeded, `only-in-${keys[2]}`]);
            await sleep(700);
          }
        })();
        await until(async () => !(await exists(url, first as string)) && !(await exists(url, second as string)));
        using = false;
        await busyLoop;
        expect(await exists(url, first as string)).toBe(false);
        expect(await exists(url, second as string)).toBe(false);
        expect(await exists(url, busy as string)).toBe(true);
        // The two keys' and the one B first read with, all by A.
        expect(await metric(ao, 'petstore_workspaces_removed_total')).toBe(3);
        expect(await metric(bo, 'petstore_workspaces_removed_total')).toBe(0);
        // Made afresh through A first: B, which read the old one, reads the new one.
        expect(await list(ao, keys[0] as string)).toEqual(seeded);
        expect(await list(bo, keys[0] as string)).toEqual(seeded);
        expect((await v1(bo, keys[0] as string, '/pets/4')).status).toBe(404);
        // Made afresh by B's own next request.
        expect(await list(bo, keys[1] as string)).toEqual(seeded);
        expect((await v1(bo, keys[1] as string, '/pets/4')).status).toBe(404);
        expect(await list(bo, keys[2] as string)).toEqual([...seeded, `only-in-${keys[2]}`]);
      } finally {
        await stopInstances(a, b);
      }
    },
  );

  it('a workspace held by a request of the removing instance is kept past the TTL and the grace, and goes once released', { timeout: 180_000 }, async () => {
    const url = await freshStore(server.port);
    const sandbox = await startSandbox(testConfig(['--store', url, '--open-keys', '--count', '1', '--open-key-ttl', '1']));
    let release = () => {};
    try {
      const { workspaces } = sandbox.backend;
      const [held, idle] = [workspaces.idOf('held-key'), workspaces.idOf('idle-key')];
      const holding = workspaces.use('held-key', () => new Promise<void>((done) => (release = done)));
      expect((await v1(sandbox.origin, 'idle-key', '/pets')).status).toBe(200);
      await until(async () => !(await exists(url, idle)));
      expect(await exists(url, idle)).toBe(false);
      // Held well past the grace: still there.
      await sleep(12_000);
      expect(await exists(url, held)).toBe(true);
      release();
      await holding;
      await until(async () => !(await exists(url, held)));
      expect(await exists(url, held)).toBe(false);
      expect(workspaces.removedCount()).toBe(2);
    } finally {
      release();
      await sandbox.close();
    }
  });
});
