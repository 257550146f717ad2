import pg from 'pg';
import { describe, expect, it } from 'vitest';
import type { JournalRecord } from '../../../../src/store/journal/types.js';
import { PgJournal } from '../../../../src/store/postgres/journal.js';

const record: JournalRecord = {
  time: 0,
  method: 'GET',
  url: '/v1/pets',
  operationId: 'listPets',
  status: 200,
  durationMs: 1,
  request: undefined,
  response: undefined,
};

// A pool at a port nobody listens on: the journal's writes fail (and are reported), but what waits is what is asked.
const unreachable = () => new pg.Pool({ host: '127.0.0.1', port: 1, connectionTimeoutMillis: 100 });

describe('the PostgreSQL journal says whether it would keep an entry', () => {
  it('takes none with --journal-size 0, and none once 10,000 entries wait for their write: the engine then captures nothing', async () => {
    const pool = unreachable();
    const errors: unknown[] = [];
    try {
      expect(
        new PgJournal(
          pool,
          0,
          1 << 20,
          () => [],
          (e) => errors.push(e),
        ).accepting(),
      ).toBe(false);
      const journal = new PgJournal(
        pool,
        100,
        1 << 30,
        () => [],
        (e) => errors.push(e),
      );
      expect(journal.accepting()).toBe(true);
      // Added in one turn: the first batch waits for its gather, so all of them are pending at once.
      for (let i = 0; i < 9_999; i++) journal.add('ws', record);
      expect(journal.accepting()).toBe(true);
      journal.add('ws', record);
      expect(journal.accepting()).toBe(false);
    } finally {
      await new Promise((resolve) => setTimeout(resolve, 300));
      await pool.end();
    }
  });
});
