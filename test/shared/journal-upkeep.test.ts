/**
 * The shared journal's upkeep on PostgreSQL: each batch of entries cuts its
 * journal back to --journal-size, also when another instance kept more, and
 * the sandbox vacuums the journal's table itself, not leaving the dead rows
 * of cut entries to PostgreSQL's autovacuum (by default a visit a minute,
 * while a busy sandbox cuts thousands of entries a second).
 */
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { startInstance, stopInstances, twoInstances } from '../support/shared-sandboxes.js';

const two = twoInstances([]);

/** The rows the database holds for a workspace's journal. */
async function journalRows(workspace: string): Promise<number> {
  const client = new pg.Client(two.url);
  await client.connect();
  try {
    const { rows } = await client.query<{ n: string }>('SELECT count(*) AS n FROM petstore_journal WHERE workspace = $1', [workspace]);
    return Number(rows[0]?.n);
  } finally {
    await client.end();
  }
}

/** Sends `count` GETs through `call`, `concurrency` at a time. */
async function load(call: (path: string) => Promise<{ status: number }>, count: number, concurrency: number): Promise<void> {
  let sent = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (sent < count) {
        sent += 1;
        expect((await call('/v1/pets?limit=3')).status).toBe(200);
      }
    }),
  );
}

interface JournalPage {
  workspace: string;
  entries: unknown[];
}

describe('the journal on PostgreSQL', () => {
  it('an instance with a smaller --journal-size shows no more than it keeps, and cuts the shared journal to it within a few requests', async () => {
    await load(two.a.call, 150, 10);
    const page = (await two.a.ctl('GET', '/journal')).body as JournalPage;
    expect(page.entries.length).toBeGreaterThanOrEqual(150);
    expect(await journalRows(page.workspace)).toBeGreaterThanOrEqual(150);

    const small = await startInstance(two.url, ['--journal-size', '5']);
    try {
      expect(((await small.ctl('GET', '/journal')).body as JournalPage).entries).toHaveLength(5);
      // Each of its batches cuts the journal back by at most its own entries and 64 more: 151 → ~5 in three requests.
      for (let i = 0; i < 4; i++) {
        expect((await small.call('/v1/pets?limit=1')).status).toBe(200);
        await small.ctl('GET', '/journal'); // waits for the instance's journal writes
      }
      expect(await journalRows(page.workspace)).toBe(5);
      expect(((await small.ctl('GET', '/journal')).body as JournalPage).entries).toHaveLength(5);
    } finally {
      await stopInstances(small);
    }
  }, 120_000);

  it('the sandbox vacuums the journal itself every few thousand entries', async () => {
    const vacuums = async (): Promise<number> => {
      const client = new pg.Client(two.url);
      await client.connect();
      try {
        // vacuum_count counts VACUUM commands only, not autovacuum's visits (autovacuum_count).
        const { rows } = await client.query<{ n: string }>("SELECT vacuum_count AS n FROM pg_stat_user_tables WHERE relname = 'petstore_journal'");
        return Number(rows[0]?.n);
      } finally {
        await client.end();
      }
    };
    // Autovacuum off on this table: its visit would make the sandbox's VACUUM (SKIP_LOCKED) skip, and this
    // test is about the sandbox's own.
    const admin = new pg.Client(two.url);
    await admin.connect();
    await admin.query('ALTER TABLE petstore_journal SET (autovacuum_enabled = false)').finally(() => admin.end());
    const before = await vacuums();
    await load(two.b.call, 4200, 20);
    await two.b.ctl('GET', '/journal'); // waits for B's journal writes (its vacuum runs beside them)
    let after = await vacuums();
    // PostgreSQL publishes a backend's counts when it goes idle, at most once a second and later on a busy machine
    // (a run at load 14 waited past 20 s for one): poll for a minute.
    for (let tries = 0; tries < 600 && after === before; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      after = await vacuums();
    }
    expect(after).toBeGreaterThan(before);
  }, 180_000);
});
