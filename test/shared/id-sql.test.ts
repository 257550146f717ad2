/**
 * The id rule spelled in SQL (src/store/postgres/id-sql.ts) decides on
 * PostgreSQL what the file and memory stores decide in JavaScript
 * (src/store/rules.ts): for the same next id and batch, the same next id
 * after, the same block of ids in the same order, the same refusal at
 * MAX_ID, the same bytes for the quota.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_ID, idAt, idBytes, idRule, takeIds } from '../../src/store/rules.js';
import { SQL_NUMBERS } from '../../src/store/postgres/id-sql.js';
import { freshStore, postgresForFile } from '../support/shared-sandboxes.js';

let server: Awaited<ReturnType<typeof postgresForFile>>;
let pool: pg.Pool;

beforeAll(async () => {
  server = await postgresForFile();
  pool = new pg.Pool({ connectionString: await freshStore(server.port), max: 1 });
}, 180_000);
afterAll(async () => {
  await pool?.end();
  await server?.stop();
});

/** Next ids and batch sizes: across the lengths of ids (9 to 10, 99 to 100), a long batch, and at the bound. */
const CASES: readonly [number, number][] = [
  [1, 1],
  [9, 1],
  [9, 2],
  [10, 1],
  [95, 10],
  [1, 250],
  [123_456_789, 40],
  [MAX_ID, 1],
  [MAX_ID - 3, 4],
  [MAX_ID, 2],
  [MAX_ID - 3, 5],
  [MAX_ID + 1, 1],
];

/**
 * What the rule decides in SQL for `next` and `count`, with the count as a
 * parameter (a batch's statement) or as the number 1 (a single create's).
 */
async function inSql(next: number, count: number, countAs: 'parameter' | 'number') {
  const n = countAs === 'number' ? String(count) : '$2::bigint';
  const after = idRule.advance(SQL_NUMBERS, '$1::bigint', n);
  const block = idRule.below(SQL_NUMBERS, after, n);
  const lastByIndex = idRule.nth(SQL_NUMBERS, block.first, `(${n} - 1)`);
  const bytes = idRule.bytes(SQL_NUMBERS, block.first, block.last);
  const { rows } = await pool.query<Record<'after' | 'first' | 'last' | 'last_by_index' | 'bytes', string> & { fits: boolean }>(
    `SELECT ${after} AS after, ${block.first} AS first, ${block.last} AS last,
       ${lastByIndex} AS last_by_index, ${block.fits} AS fits, ${bytes} AS bytes`,
    countAs === 'number' ? [next] : [next, count],
  );
  const row = rows[0];
  if (!row) throw new Error('no row');
  if (!row.fits) return undefined;
  const num = (column: 'after' | 'first' | 'last' | 'last_by_index' | 'bytes') => Number(row[column]);
  return { after: num('after'), first: num('first'), last: num('last'), lastByIndex: num('last_by_index'), bytes: num('bytes') };
}

/** What the rule decides in JavaScript: undefined where it refuses (no ids left). */
function inJs(next: number, count: number) {
  let taken;
  try {
    taken = takeIds(next, count);
  } catch {
    return undefined;
  }
  const ids = Array.from({ length: count }, (_, i) => idAt(taken.first, i));
  return { ...taken, lastByIndex: ids.at(-1), bytes: ids.reduce((sum, id) => sum + idBytes(id), 0) };
}

describe('the id rule in SQL and in JavaScript', () => {
  it('decides alike: the next id, the block and its order, the bound, the bytes', async () => {
    for (const [next, count] of CASES) {
      const js = inJs(next, count);
      expect({ next, count, sql: await inSql(next, count, 'parameter') }).toEqual({ next, count, sql: js });
      if (count === 1) expect({ next, sql: await inSql(next, 1, 'number') }).toEqual({ next, sql: js });
    }
    // The cases reach both answers.
    expect(CASES.filter(([next, count]) => inJs(next, count) === undefined)).toHaveLength(3);
  });
});
