/**
 * What `--database-pooler transaction` sends: every query the PostgreSQL
 * store makes, through each kind of request (creates one by one and
 * together, reads, lists, the state read, the journal, faults, checkpoints,
 * loads, resets, exports, copies, coverage), goes without a statement name,
 * which a pooler in transaction mode would lose. Each query is seen where the
 * driver's Client takes it. In session mode (the default) the same requests
 * send named ones: what shows that the check sees names.
 */
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createSandbox, type PetstoreSandbox } from '../../src/index.js';
import { KEY } from '../support/harness.js';
import { freshStore, postgresForFile } from '../support/shared-sandboxes.js';

const OTHER = 'other-key';

/** The names of the queries sent while `work` runs (one entry per named query). */
async function namesSentDuring(work: () => Promise<void>): Promise<{ queries: number; names: string[] }> {
  const names: string[] = [];
  let queries = 0;
  const query = pg.Client.prototype.query;
  const spy = vi.spyOn(pg.Client.prototype, 'query').mockImplementation(function (this: pg.Client, ...args: unknown[]) {
    queries += 1;
    const config = args[0] as { name?: unknown } | string | null;
    if (config !== null && typeof config === 'object' && typeof config.name === 'string' && config.name !== '') names.push(config.name);
    return (query as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof query);
  try {
    await work();
  } finally {
    spy.mockRestore();
  }
  return { queries, names };
}

/** Requests of every kind that reach the database, each checked. */
async function everyKindOfRequest(sandbox: PetstoreSandbox): Promise<void> {
  const auth = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };
  const create = (i: number) => sandbox.fetch('/v1/pets', { method: 'POST', headers: auth, body: JSON.stringify({ name: `n${i}`, categoryId: 1 }) });
  expect((await create(0)).status).toBe(201);
  // Together: the group commit's statement.
  expect((await Promise.all(Array.from({ length: 12 }, (_, i) => create(i + 1)))).map((r) => r.status)).toEqual(Array(12).fill(201));
  expect((await sandbox.fetch('/v1/pets?limit=5', { headers: auth })).status).toBe(200);
  expect((await sandbox.fetch('/v1/pets?limit=5&status=available', { headers: auth })).status).toBe(200);
  expect((await sandbox.fetch('/v1/pets/1', { headers: auth })).status).toBe(200);
  // The controls resolve with their answer's body, and throw on any failure.
  const ws = sandbox.workspace(KEY);
  await ws.journal.read();
  await ws.faults.add({ operationId: 'getPet', status: 503, count: 1 });
  expect((await sandbox.fetch('/v1/pets/1', { headers: auth })).status).toBe(503);
  await ws.checkpoint('before');
  await ws.load({ generate: { seed: 2, count: 4 } });
  await ws.restore('before');
  expect((await ws.export()).pets.length).toBe(18);
  await ws.copyTo(OTHER);
  await ws.reset({ count: 3 });
  await ws.coverage();
  await ws.journal.clear();
}

describe('the queries of the PostgreSQL store', () => {
  let server: Awaited<ReturnType<typeof postgresForFile>>;
  let sandbox: PetstoreSandbox | undefined;
  beforeAll(async () => {
    server = await postgresForFile();
  }, 180_000);
  afterEach(async () => {
    await sandbox?.close();
    sandbox = undefined;
  });
  afterAll(() => server?.stop());

  const start = async (pooler: string) =>
    (sandbox = await createSandbox({
      store: await freshStore(server.port),
      apiKeys: [KEY, OTHER],
      count: 5,
      options: { 'database-pooler': pooler, 'journal-size': 50 },
    }));

  it('in transaction mode carry no statement name, from start-up to the last request', { timeout: 120_000 }, async () => {
    const sent = await namesSentDuring(async () => everyKindOfRequest(await start('transaction')));
    expect(sent.queries).toBeGreaterThan(30);
    expect(sent.names).toEqual([]);
  });

  it('in session mode carry the names of the statements prepared once per connection', { timeout: 120_000 }, async () => {
    const sent = await namesSentDuring(async () => everyKindOfRequest(await start('session')));
    for (const name of ['petstore-sync-read', 'petstore-create', 'petstore-create-batch', 'petstore-page', 'petstore-page-status', 'petstore-pet'])
      expect(sent.names).toContain(name);
    expect(sent.names.some((name) => name.startsWith('petstore-journal-'))).toBe(true);
  });
});
