/**
 * Open workspaces are bounded: the least recently used idle one is closed
 * to make room, idle ones are closed after a while, a closed one reopens
 * with its data, and when none can be closed the answer is a clear 503.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { StoreFailure } from '../../../src/kernel/store-errors.js';
import { Workspaces, type WorkspacesOptions } from '../../../src/store/file/workspaces.js';
import { tempDir } from '../../support/harness.js';

const opened: Workspaces[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((w) => w.close()));
});

async function workspaces(options: Partial<WorkspacesOptions> = {}): Promise<Workspaces> {
  const ws = await Workspaces.open({
    dataFile: join(tempDir('petstore-ws-'), 'db.json'),
    defaultKey: 'main',
    store: { seed: { seed: 1, count: 3 } },
    ...options,
  });
  opened.push(ws);
  return ws;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const names = (ws: Workspaces, key: string) => ws.use(key, (store) => store.all().map((p) => p.name));

describe('Workspaces', () => {
  it('closes the least recently used idle workspace to open another, and reopens it with its data', async () => {
    const ws = await workspaces({ maxOpen: 3 });
    await ws.use('main', () => undefined);
    await ws.use('a', (store) => store.createText({ name: 'of a', categoryId: 1 }));
    await ws.use('b', (store) => store.createText({ name: 'of b', categoryId: 1 }));
    await ws.use('c', () => undefined);
    expect(ws.openIds().sort()).toEqual(['main', 'b', 'c'].map((k) => ws.idOf(k)).sort());
    expect(await names(ws, 'a')).toContain('of a');
    // Reopening `a` made room by closing `b`, now the least recently used; never the default workspace.
    expect(ws.openIds()).not.toContain(ws.idOf('b'));
    expect(ws.openIds()).toContain(ws.idOf('main'));
    expect(await names(ws, 'b')).toContain('of b');
  });

  it('answers 503 service_unavailable when every open workspace is in use, and opens it once one is free', async () => {
    const ws = await workspaces({ maxOpen: 2 });
    let release: () => void = () => undefined;
    let started: () => void = () => undefined;
    const inUse = new Promise<void>((resolve) => (started = resolve));
    const held = ws.use('a', () => new Promise<void>((resolve) => ((release = resolve), started())));
    await Promise.all([inUse, ws.use('main', () => undefined)]);
    const error = await ws.use('b', () => undefined).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreFailure);
    expect([(error as StoreFailure).code, (error as StoreFailure).message]).toEqual(['service_unavailable', expect.stringMatching(/--max-workspaces/)]);
    release();
    await held;
    expect(await names(ws, 'b')).toHaveLength(3);
  });

  it('closes workspaces left idle, never the default one, and reopens them on demand', async () => {
    const ws = await workspaces({ idleMs: 40 });
    await ws.use('main', () => undefined);
    await ws.use('a', (store) => store.createText({ name: 'kept', categoryId: 1 }));
    for (let i = 0; i < 50 && ws.openIds().length > 1; i++) await sleep(20);
    expect(ws.openIds()).toEqual([ws.idOf('main')]);
    expect(await names(ws, 'a')).toContain('kept');
  });

  it('names files and ids by a keyed hash that differs between data folders', async () => {
    const [one, two] = [await workspaces(), await workspaces()];
    expect(one.idOf('same-key')).toMatch(/^[0-9a-f]{16}$/);
    expect(one.idOf('same-key')).not.toBe(two.idOf('same-key'));
    expect(one.fileFor('same-key')).toContain(one.idOf('same-key'));
    expect(one.fileFor('main')).toBe(one.dataFile);
  });
});

describe('Workspaces.close', () => {
  it('lets a write under way land before the files close', async () => {
    const ws = await workspaces();
    await ws.use('a', () => undefined);
    const writing = ws.use('a', (store) => store.replace([{ id: 42, name: 'late', categoryId: 1 }]));
    await Promise.all([writing, ws.close()]);
    const again = await workspaces({ dataFile: ws.dataFile });
    expect(await names(again, 'a')).toEqual(['late']);
  });

  it('refuses a use asked once closing began (503), and opens no store again for it', async () => {
    const ws = await workspaces();
    await ws.use('a', () => undefined);
    const closing = ws.close();
    const error = await ws.use('a', (store) => store.replace([])).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreFailure);
    expect([(error as StoreFailure).code, (error as StoreFailure).message]).toEqual(['service_unavailable', expect.stringMatching(/stopping/)]);
    await closing;
    expect(ws.openIds()).toEqual([]);
  });
});
