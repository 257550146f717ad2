/**
 * A read PostgreSQL's backend keeps is answered at once (`WorkspaceStore.reader`),
 * as the file backend answers: a page or a pet this instance kept at the
 * workspace's newest version comes back as a value, not a promise, so the
 * request stays synchronous end to end. Two real backends on one database:
 * a create through the other makes the next read wait for the database and
 * find the new pet, and only then is it kept again.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/kernel/logger.js';
import { loadSpec } from '../../src/openapi/load-spec.js';
import type { Backend, WorkspaceReads } from '../../src/store/backend.js';
import type { Page } from '../../src/store/pet-index.js';
import { openPostgresBackend } from '../../src/store/postgres/backend.js';
import { testConfig } from '../support/harness.js';
import { freshStore, postgresForFile } from '../support/shared-sandboxes.js';

const spec = loadSpec();
let server: Awaited<ReturnType<typeof postgresForFile>> | undefined;
let url = '';
let a: Backend;
let b: Backend;
let key = '';

const open = () =>
  openPostgresBackend({ config: testConfig(['--store', url]), url, logger: silentLogger, checkResponse: () => [], operations: spec.operations });

/** Instance A's reads of the key's workspace; it knows the workspace once it used it. */
function readerOfA(): WorkspaceReads {
  const reader = a.workspaces.reader?.(key);
  if (!reader) throw new Error('instance A hands out no reader for a workspace it used');
  return reader;
}

const idsOf = (page: Page) => page.pets.map((pet) => pet.id);

/** Waits until A answers the first page at once: it listens, has registered, and kept the page (a rejoin forgets what it kept). */
async function pageKeptByA(): Promise<Page> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const page = readerOfA().page(100);
    if (!(page instanceof Promise)) return page;
    await page;
    if (Date.now() > deadline) throw new Error('instance A never kept the first page');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

beforeAll(async () => {
  server = await postgresForFile();
  url = await freshStore(server.port);
  a = await open();
  b = await open();
  key = testConfig().apiKeys[0] as string;
  await a.workspaces.use(key, (ws) => ws.page(100));
}, 180_000);

afterAll(async () => {
  await Promise.all([a?.close(), b?.close()]);
  await server?.stop();
});

describe('reads kept by a PostgreSQL instance, answered at once', () => {
  it('answers a kept page and pet as values; after a create through another instance, reads the database once and keeps the new answer', async () => {
    const before = await pageKeptByA();
    const db = new pg.Client({ connectionString: url });
    await db.connect();
    try {
      const { rows } = await db.query<{ id: string }>('SELECT id FROM petstore_pets ORDER BY id LIMIT 100');
      expect(idsOf(before)).toEqual(rows.map((row) => Number(row.id)));
    } finally {
      await db.end();
    }

    const created = await b.workspaces.use(key, (ws) => ws.createText({ name: 'Told', categoryId: 1 }));
    // B's create is answered once A heard it: A's next read must not be the page it kept.
    const next = readerOfA().page(100);
    expect(next).toBeInstanceOf(Promise);
    expect(idsOf(await next)).toContain(created.pet.id);
    const again = readerOfA().page(100);
    expect(again).not.toBeInstanceOf(Promise);
    expect(idsOf(again as Page)).toContain(created.pet.id);

    const first = readerOfA().getText(created.pet.id);
    expect(first).toBeInstanceOf(Promise);
    expect((await first)?.json).toBe(created.json);
    expect(readerOfA().getText(created.pet.id)).toEqual(await first);
    expect(readerOfA().getText(created.pet.id)).not.toBeInstanceOf(Promise);
  }, 60_000);
});
