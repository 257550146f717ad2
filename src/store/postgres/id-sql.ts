/**
 * The id rule (`../rules.ts`) spelled in SQL, for the statements that store
 * new pets.
 *
 * Instances share a workspace, so its ids are taken in the database, by
 * the one statement that stores the pets (one round trip per create or
 * batch): its UPDATE of the workspace's row moves the next id past the
 * block, and the row's lock, held until COMMIT, makes creates through any
 * instance take their turns, each seeing the next id the one before left.
 * The statement holds no arithmetic of ids of its own: the next id, the
 * bound, the bytes the ids add and each id are `idRule`'s, rendered with
 * SQL's numbers below. A transaction that locked the row and let this
 * process compute would cost several round trips per create; a rule
 * written again in SQL could drift from the other stores'
 * (test/shared/id-sql.test.ts holds this rendering equal to JavaScript's,
 * on PostgreSQL).
 */
import { idRule, type IdMath } from '../rules.js';

/**
 * PostgreSQL's numbers, as SQL text (bigint: an id is at most MAX_ID). A sum
 * over one id is that id's value: a single create's statement needs no series.
 */
export const SQL_NUMBERS: IdMath<string, string> = {
  int: (n) => `${n}`,
  plus: (a, b) => `(${a} + ${b})`,
  minus: (a, b) => `(${a} - ${b})`,
  atMost: (a, b) => `(${a} <= ${b})`,
  sum: (first, last, f) => {
    if (first === last) return f(first);
    return `(SELECT coalesce(sum(${f('g')}), 0) FROM generate_series(${first}, ${last}) AS g)`;
  },
  digits: (id) => `length((${id})::text)`,
};

/** What a statement that stores new pets takes their ids with (`takeIdsSql`). */
export interface TakeIdsSql {
  /**
   * A common table expression, for after `WITH`: `w`, the row of the
   * workspace `$1` moved past the ids taken (its counts and version too),
   * with the block's first id as `first`; no row when an id would pass
   * MAX_ID or a quota would be passed.
   */
  with: string;
  /** The id of the create `i` (SQL) places into the block, from 0. */
  idAt(i: string): string;
}

/**
 * How a statement takes the ids of `count` creates (each argument SQL: a
 * parameter or a number) whose pets' JSON texts hold `fixedBytes` bytes
 * besides their ids, within the quotas `quotaPets` and `quotaBytes`.
 */
export function takeIdsSql(o: { count: string; fixedBytes: string; quotaPets: string; quotaBytes: string }): TakeIdsSql {
  // SET and WHERE see the row before the UPDATE; RETURNING sees it after, its next_id already moved.
  const after = idRule.advance(SQL_NUMBERS, 'next_id', o.count);
  const block = idRule.below(SQL_NUMBERS, after, o.count);
  const returned = idRule.below(SQL_NUMBERS, 'next_id', o.count);
  const bytes = `bytes + ${o.fixedBytes} + ${idRule.bytes(SQL_NUMBERS, block.first, block.last)}`;
  return {
    with: `w AS (
         UPDATE petstore_workspaces SET version = version + 1, next_id = ${after}, pet_count = pet_count + ${o.count}, bytes = ${bytes}
         WHERE id = $1 AND ${block.fits} AND pet_count + ${o.count} <= ${o.quotaPets} AND ${bytes} <= ${o.quotaBytes}
         RETURNING ${returned.first} AS first)`,
    idAt: (i) => idRule.nth(SQL_NUMBERS, 'w.first', i),
  };
}
