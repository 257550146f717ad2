/**
 * With --open-keys and a spec served by convention, a workspace used only
 * through the spec's items counts as used: beyond --open-key-workspaces or
 * unused past --open-key-ttl it is removed, and its items go with it (its
 * space dropped from memory, its folder from disk); its key comes back to
 * freshly seeded items. Run on the data file and the memory store alike.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { onMemory, onPostgres, startTestSandbox, type TestSandbox } from '../support/harness.js';
import { INVENTORY, servedApi } from '../support/own-spec.js';

let sb: TestSandbox | undefined;
afterEach(() => sb?.stop());

const item = { name: 'Hammer', sku: 'HAM-0001', category: 'tools', price: 12.5 };

/** The inventory at /api/v2 of `s`, and the ids of a key's items. */
function inventoryOf(s: TestSandbox) {
  const v2 = servedApi(fetch, s.origin, '/api/v2', INVENTORY);
  const ids = async (apiKey: string) => ((await v2.send('/items?limit=50', { apiKey })).body as { id: string }[]).map((i) => i.id);
  const create = async (apiKey: string) => {
    const created = await v2.send('/items', { apiKey, json: item });
    expect(created.status).toBe(201);
    return (created.body as { id: string }).id;
  };
  const folder = (key: string) => join(s.dir, 'db.items', s.backend.workspaces.idOf(key));
  return { ids, create, folder };
}

/** Waits, bounded, until `removed` workspaces were removed. */
async function removed(s: TestSandbox, count: number): Promise<void> {
  for (let i = 0; i < 200 && s.backend.workspaces.removedCount() < count; i++) await new Promise((resolve) => setTimeout(resolve, 50));
  expect(s.backend.workspaces.removedCount()).toBe(count);
}

// PostgreSQL counts a use of items in its own way: test/shared/open-keys-bounded.test.ts covers its removals.
describe.skipIf(onPostgres)("open keys' workspaces used only through a spec's items", { timeout: 60_000 }, () => {
  it('beyond --open-key-workspaces the least recently used goes with its items; the others keep theirs', async () => {
    sb = await startTestSandbox(['--open-keys', '--open-key-workspaces', '2', '--spec', INVENTORY, '--count', '2']);
    const { ids, create, folder } = inventoryOf(sb);
    const made = new Map<string, string>();
    for (const key of ['open-1', 'open-2']) made.set(key, await create(key));
    if (!onMemory) expect(existsSync(folder('open-1'))).toBe(true);
    made.set('open-3', await create('open-3'));
    await removed(sb, 1);
    if (!onMemory) expect(existsSync(folder('open-1'))).toBe(false);
    for (const key of ['open-2', 'open-3']) expect(await ids(key)).toContain(made.get(key));
    // open-1 starts afresh: its two seeded items, not the one it made.
    const fresh = await ids('open-1');
    expect(fresh).toHaveLength(2);
    expect(fresh).not.toContain(made.get('open-1'));
  });

  it('a workspace whose items are unused past --open-key-ttl goes with them', async () => {
    sb = await startTestSandbox(['--open-keys', '--open-key-ttl', '1', '--spec', INVENTORY, '--count', '0']);
    const { ids, create, folder } = inventoryOf(sb);
    await create('brief');
    await removed(sb, 1);
    if (!onMemory) expect(existsSync(folder('brief'))).toBe(false);
    expect(await ids('brief')).toEqual([]);
  });
});
