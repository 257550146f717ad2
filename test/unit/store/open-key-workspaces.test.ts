/**
 * Workspaces of open keys are bounded on disk: beyond the cap the least
 * recently used one that no request holds is removed with every file of it
 * (snapshot, commit log, checkpoints), past the TTL an unused one is, a
 * configured key's never is, a workspace in use is not touched, and a key
 * whose workspace was removed gets a fresh seeded one. Files an earlier run
 * left are found at start and held to the same policy.
 */
import { mkdirSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RemovalReason } from '../../../src/store/open-key-policy.js';
import { Workspaces, type WorkspacesOptions } from '../../../src/store/file/workspaces.js';
import { tempDir } from '../../support/harness.js';
import { filesOpenForWriting } from '../../support/mounts.js';

const opened: Workspaces[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((w) => w.close()));
});

interface Run {
  ws: Workspaces;
  dir: string;
  removed: [string, RemovalReason][];
}

async function start(policy: { max?: number; ttlMs?: number } = {}, dir = tempDir('petstore-okw-'), options: Partial<WorkspacesOptions> = {}): Promise<Run> {
  const removed: [string, RemovalReason][] = [];
  const ws = await Workspaces.open({
    dataFile: join(dir, 'db.json'),
    defaultKey: 'main',
    store: { seed: { seed: 1, count: 3 } },
    openKeys: { configured: ['main', 'other'], max: policy.max ?? 3, ttlMs: policy.ttlMs ?? 3_600_000, onRemoved: (id, why) => removed.push([id, why]) },
    ...options,
  });
  opened.push(ws);
  return { ws, dir, removed };
}

/** Workspace files (snapshots and logs) beside the data file, by id. */
const onDisk = (dir: string) => new Set(readdirSync(dir).flatMap((f) => /^db\.([0-9a-f]{16})\.json/.exec(f)?.[1] ?? []));
const create = (ws: Workspaces, key: string, name = `of ${key}`) => ws.use(key, (store) => store.createText({ name, categoryId: 1 }));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('workspaces of open keys', () => {
  it('beyond the cap, removes the least recently used with its snapshot, log and checkpoints; never a configured key', async () => {
    const { ws, dir, removed } = await start({ max: 3 });
    await create(ws, 'other');
    for (const key of ['k1', 'k2', 'k3']) await create(ws, key);
    const checkpoints = join(dir, 'db.checkpoints', ws.idOf('k1'));
    mkdirSync(checkpoints, { recursive: true });
    writeFileSync(join(checkpoints, 'saved.json'), '{}\n');
    await ws.use('k1', () => undefined);
    await create(ws, 'k4');
    expect(onDisk(dir)).toEqual(new Set(['other', 'k1', 'k3', 'k4'].map((k) => ws.idOf(k))));
    expect(removed).toEqual([[ws.idOf('k2'), 'cap']]);
    expect(ws.removedCount()).toBe(1);
    await create(ws, 'k5');
    await create(ws, 'k6');
    expect(onDisk(dir)).toEqual(new Set(['other', 'k4', 'k5', 'k6'].map((k) => ws.idOf(k))));
    expect(readdirSync(join(dir, 'db.checkpoints'))).toEqual([]);
    expect(readdirSync(dir).filter((f) => f.includes(ws.idOf('k1')))).toEqual([]);
    expect(ws.openIds()).not.toContain(ws.idOf('k1'));
    // A removed workspace was closed: no descriptor of this process points at it (its log was open for writing).
    expect(filesOpenForWriting(process.pid, dir).filter((f) => f.includes(ws.idOf('k1')) || f.includes(ws.idOf('k2')))).toEqual([]);
    expect(filesOpenForWriting(process.pid, dir)).toContain(`${join(dir, `db.${ws.idOf('k6')}.json`)}.log`);
    expect(await ws.use('main', (s) => s.size)).toBe(3);
    expect(await ws.use('other', (s) => s.all().map((p) => p.name))).toContain('of other');
  });

  it('never removes a workspace a request holds; a removed key comes back fresh and seeded', async () => {
    const { ws, dir } = await start({ max: 1 });
    await create(ws, 'held', 'before');
    let release: () => void = () => undefined;
    const holding = ws.use('held', () => new Promise<void>((resolve) => (release = resolve)));
    await create(ws, 'k1');
    await create(ws, 'k2');
    // `held` is in use: the others went instead, and it is still there with its pet.
    expect(onDisk(dir)).toEqual(new Set([ws.idOf('held'), ws.idOf('k2')]));
    release();
    await holding;
    await create(ws, 'k3');
    expect(onDisk(dir)).toEqual(new Set([ws.idOf('k3')]));
    const names = await ws.use('held', (s) => s.all().map((p) => p.name));
    expect(names).toHaveLength(3);
    expect(names).not.toContain('before');
  });

  it('counts only workspaces that opened: a key refused at --max-workspaces takes no place', async () => {
    const { ws, dir, removed } = await start({ max: 2 }, undefined, { maxOpen: 2 });
    await ws.use('main', () => undefined);
    let release: () => void = () => undefined;
    let started: () => void = () => undefined;
    const inUse = new Promise<void>((resolve) => (started = resolve));
    const holding = ws.use('k1', () => new Promise<void>((resolve) => ((release = resolve), started())));
    await inUse;
    expect(await ws.use('k2', () => undefined).catch((e: unknown) => (e as { code?: string }).code)).toBe('service_unavailable');
    release();
    await holding;
    await create(ws, 'k3');
    expect(removed).toEqual([]);
    expect(onDisk(dir)).toEqual(new Set([ws.idOf('k1'), ws.idOf('k3')]));
  });

  it('removes those unused past the TTL', async () => {
    const { ws, dir, removed } = await start({ max: 100, ttlMs: 200 });
    await create(ws, 'k1');
    await create(ws, 'other');
    for (let i = 0; i < 100 && removed.length === 0; i++) await sleep(50);
    expect(onDisk(dir)).toEqual(new Set([ws.idOf('other')]));
    expect(removed).toEqual([[ws.idOf('k1'), 'ttl']]);
  });

  it('finds what an earlier run left: past the TTL or beyond the cap it goes at start, with its discarded tails', async () => {
    const first = await start({ max: 10 });
    const dir = first.dir;
    const [k1, k2, k3, k4] = ['k1', 'k2', 'k3', 'k4'].map((k) => first.ws.idOf(k)) as [string, string, string, string];
    for (const key of ['k1', 'k2', 'k3', 'k4']) await create(first.ws, key);
    await first.ws.close();
    writeFileSync(join(dir, `db.${k2}.json.log.discarded-2024`), 'torn');
    // Last changed 2 h, 50, 40 and 30 minutes ago: k1 past the TTL of an hour, k2 the least recently used of the rest.
    const ago = new Map([k1, k2, k3, k4].map((id, i) => [id, Date.now() / 1000 - ([7200, 3000, 2400, 1800][i] as number)]));
    for (const f of readdirSync(dir)) {
      const id = /[0-9a-f]{16}/.exec(f)?.[0];
      const time = id && ago.get(id);
      if (time) utimesSync(join(dir, f), time, time);
    }
    const second = await start({ max: 2, ttlMs: 3_600_000 }, dir);
    expect(second.removed).toEqual([
      [k1, 'ttl'],
      [k2, 'cap'],
    ]);
    expect(readdirSync(dir).filter((f) => f.includes(k2))).toEqual([]);
    expect(onDisk(dir)).toEqual(new Set([k3, k4]));
    expect(dirname(second.ws.dataFile)).toBe(dir);
  });

  it("finds a workspace an earlier run used only through a spec's items (its items' folder alone) and holds it to the TTL", async () => {
    const dir = tempDir('petstore-okw-');
    const first = await start({ max: 10 }, dir);
    const [k1, other] = ['k1', 'other'].map((k) => first.ws.idOf(k)) as [string, string];
    // A configured key's workspace made: the secret the ids are keyed with is written, so the next run names them alike.
    await create(first.ws, 'other');
    await first.ws.close();
    const hoursAgo = Date.now() / 1000 - 7200;
    for (const id of [k1, other]) {
      mkdirSync(join(dir, 'db.items', id), { recursive: true });
      writeFileSync(join(dir, 'db.items', id, 'api.json'), '{}\n');
      utimesSync(join(dir, 'db.items', id), hoursAgo, hoursAgo);
    }
    const second = await start({ max: 10, ttlMs: 3_600_000 }, dir);
    expect(second.removed).toEqual([[k1, 'ttl']]);
    expect(readdirSync(join(dir, 'db.items'))).toEqual([other]);
  });

  it("counts a use of a key's items as a use of its workspace: kept as the most recently used, the least recently used going beyond the cap", async () => {
    const { ws, dir, removed } = await start({ max: 2 });
    await create(ws, 'k1');
    await create(ws, 'k2');
    ws.usedByItems('k1');
    ws.usedByItems('other');
    ws.usedByItems('k3');
    for (let i = 0; i < 100 && removed.length === 0; i++) await sleep(20);
    expect(removed).toEqual([[ws.idOf('k2'), 'cap']]);
    expect(onDisk(dir)).toEqual(new Set([ws.idOf('k1')]));
  });

  it('with no policy (no open keys, or a QA command on the files), removes nothing', async () => {
    const dir = tempDir('petstore-okw-');
    const ws = await Workspaces.open({ dataFile: join(dir, 'db.json'), defaultKey: 'main', store: { seed: { seed: 1, count: 1 } } });
    opened.push(ws);
    for (const key of ['k1', 'k2', 'k3']) await create(ws, key);
    expect(onDisk(dir).size).toBe(3);
    expect(ws.removedCount()).toBe(0);
  });
});
