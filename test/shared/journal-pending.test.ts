/**
 * What the PostgreSQL journal holds in the process while its writes wait:
 * with the journal's table locked (a long vacuum, a slow disk, a migration),
 * rejected 4 KiB requests keep coming; the entries waiting for their write
 * are bounded in bytes, not only in number, so the process holds a few MiB
 * of them, not 10,000 bodies. Once the table is free, what waited is written.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshStore, postgresForFile, startInstance, stopInstances, type Instance } from '../support/shared-sandboxes.js';
import { sendRejected } from '../support/rejected-load.js';

const REJECTED = JSON.stringify({ name: 'x'.repeat(4000), categoryId: 'not a number' });
const REQUESTS = 6_000;
/** The bound on what waits (src/store/postgres/journal.ts), and the bytes each of these entries is accounted at least. */
const PENDING_BYTES = 16 * 1024 * 1024;
const ENTRY_AT_LEAST = 4_000;

let server: Awaited<ReturnType<typeof postgresForFile>>;
let url: string;
let sandbox: Instance;
beforeAll(async () => {
  server = await postgresForFile();
  url = await freshStore(server.port);
  sandbox = await startInstance(url, ['--open-keys', '--count', '0']);
}, 180_000);
afterAll(async () => {
  await stopInstances(sandbox);
  await server?.stop();
});

describe('the PostgreSQL journal while its table is locked', () => {
  it(`keeps at most ${PENDING_BYTES / 1024 / 1024} MiB of ${REQUESTS} entries waiting, and writes them once it is free`, { timeout: 180_000 }, async () => {
    const locker = new pg.Client(url);
    await locker.connect();
    try {
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE petstore_journal IN EXCLUSIVE MODE');
      await sendRejected(sandbox.child.origin, REJECTED, 'locked', REQUESTS);
      await locker.query('COMMIT');
    } finally {
      await locker.end();
    }
    const { memory } = (await sandbox.ctl('GET', '/journal?limit=0')).body as { memory: { kept: number; bytes: number } };
    // The first batch was under way when the lock came; everything after it waited in memory.
    expect(memory.kept).toBeGreaterThan(1_000);
    expect(memory.kept).toBeLessThan(PENDING_BYTES / ENTRY_AT_LEAST + 100);
    expect(memory.bytes).toBeLessThanOrEqual(PENDING_BYTES + 100 * 5_000);
  });
});
