import { describe, expect, it } from 'vitest';
import { StoreFailure } from '../../../src/kernel/store-errors.js';
import { MAX_ID, buildPet, idAfter, idAt, idBytes, idRule, nextIdAfterLoad, noIdsLeft, petBytes, takeIds } from '../../../src/store/rules.js';
import { SQL_NUMBERS, takeIdsSql } from '../../../src/store/postgres/id-sql.js';

/** The ids of a block, in arrival order. */
const idsOf = (next: number, count: number): number[] => {
  const block = takeIds(next, count);
  return Array.from({ length: count }, (_, i) => idAt(block.first, i));
};

describe('the id rule (src/store/rules.ts)', () => {
  it('a batch of creates takes the ids from the next id up, in arrival order, and the next id moves past them', () => {
    expect(takeIds(11, 1)).toEqual({ first: 11, last: 11, after: 12 });
    expect(takeIds(7, 4)).toEqual({ first: 7, last: 10, after: 11 });
    expect(idsOf(7, 4)).toEqual([7, 8, 9, 10]);
    // Two batches one after the other: no id given twice, none skipped.
    const first = takeIds(1, 3);
    expect([...idsOf(1, 3), ...idsOf(first.after, 2)]).toEqual([1, 2, 3, 4, 5]);
    expect(idAfter(41)).toBe(42);
  });

  it('no id past MAX_ID (2^53 - 2): the block that would pass it is refused whole, with the one message every store answers', () => {
    expect(MAX_ID).toBe(2 ** 53 - 2);
    expect(takeIds(MAX_ID, 1)).toEqual({ first: MAX_ID, last: MAX_ID, after: MAX_ID + 1 });
    expect(takeIds(MAX_ID - 1, 2).last).toBe(MAX_ID);
    for (const [next, count] of [
      [MAX_ID + 1, 1],
      [MAX_ID, 2],
      [MAX_ID - 2, 4],
    ] as const) {
      const error = (() => {
        try {
          takeIds(next, count);
        } catch (e) {
          return e;
        }
      })();
      expect(error).toBeInstanceOf(StoreFailure);
      expect(error).toMatchObject({
        code: 'invalid_request',
        message: `No ids left: the last id, ${MAX_ID}, is taken. Reset the workspace or load pets with lower ids.`,
      });
    }
    expect(noIdsLeft().message).toMatch(/^No ids left/);
  });

  it('an id adds its decimal digits to the byte quota: exactly what it adds to its pet JSON text, which the file and memory stores count', () => {
    const input = { name: 'Ünï 🐈', categoryId: 3, status: 'sold' as const };
    for (const id of [1, 9, 10, 99, 100, 123_456, MAX_ID]) {
      expect(idBytes(id)).toBe(String(id).length);
      expect(petBytes(buildPet(id, input)) - idBytes(id)).toBe(petBytes(buildPet(1, input)) - 1);
    }
  });

  it('after a load the next id is at least the one asked and the one held, and past the highest id', () => {
    expect(nextIdAfterLoad(0, undefined, 9)).toBe(10);
    expect(nextIdAfterLoad(0, 50, 9)).toBe(50);
    expect(nextIdAfterLoad(0, 5, 9)).toBe(10);
    expect(nextIdAfterLoad(70, 20, 9)).toBe(70);
    expect(nextIdAfterLoad(70, undefined, 90)).toBe(91);
    expect(nextIdAfterLoad(0, undefined, 0)).toBe(1);
  });
});

describe('the id rule in SQL (src/store/postgres/id-sql.ts)', () => {
  it("is the rule's own arithmetic, written in SQL: the next id, the block below it, the bound, the bytes, each id", () => {
    const after = idRule.advance(SQL_NUMBERS, 'n', '$2');
    expect(after).toBe('(n + $2)');
    expect(idRule.below(SQL_NUMBERS, after, '$2')).toEqual({ first: '((n + $2) - $2)', last: '((n + $2) - 1)', fits: `(((n + $2) - 1) <= ${MAX_ID})` });
    expect(idRule.bytes(SQL_NUMBERS, 'a', 'b')).toBe('(SELECT coalesce(sum(length((g)::text)), 0) FROM generate_series(a, b) AS g)');
    // A sum over one id is its value: a single create's statement needs no series.
    expect(idRule.bytes(SQL_NUMBERS, 'a', 'a')).toBe('length((a)::text)');
    expect(idRule.nth(SQL_NUMBERS, 'w.first', '(t.ord - 1)')).toBe('(w.first + (t.ord - 1))');
  });

  it("a statement moves the workspace's next id past the block, within the bound, and answers the block's first id from the row as moved", () => {
    const take = takeIdsSql({ count: '$2', fixedBytes: '$3', quotaPets: '$4', quotaBytes: '$5' });
    expect(take.with).toContain('UPDATE petstore_workspaces SET version = version + 1, next_id = (next_id + $2), pet_count = pet_count + $2');
    expect(take.with).toContain(`WHERE id = $1 AND (((next_id + $2) - 1) <= ${MAX_ID})`);
    expect(take.with).toContain('RETURNING (next_id - $2) AS first');
    expect(take.idAt('0')).toBe('(w.first + 0)');
  });
});
