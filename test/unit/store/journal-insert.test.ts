import { describe, expect, it } from 'vitest';
import type { JournalRecord } from '../../../src/store/journal/types.js';
import { journalInsert, slotsFor } from '../../../src/store/postgres/journal-insert.js';

const entry = (workspace: string, n: number) => ({ workspace, record: { status: 201, n } as unknown as JournalRecord, bytes: 100 + n });
const head = [1000, 'instance', 'notice', '[]'] as const;

describe("the PostgreSQL journal batch's statement", () => {
  it('pads the rows to a power of two with nulls, so that one prepared statement serves every batch of that size', () => {
    expect([1, 2, 3, 4, 5, 33, 129].map(slotsFor)).toEqual([1, 2, 4, 4, 8, 64, 256]);
    const three = journalInsert([entry('a', 1), entry('b', 2), entry('a', 3)], head);
    const four = journalInsert([entry('a', 1), entry('a', 2), entry('a', 3), entry('c', 4)], head);
    expect([three.name, four.name]).toEqual(['petstore-journal-4', 'petstore-journal-4']);
    expect(three.text).toBe(four.text);
    expect(three.values).toEqual([
      ...head,
      'a',
      '{"status":201,"n":1}',
      101,
      'b',
      '{"status":201,"n":2}',
      102,
      'a',
      '{"status":201,"n":3}',
      103,
      null,
      null,
      null,
    ]);
    expect(three.text).toContain('$16::int');
    expect(three.text).not.toContain('$17');
  });

  it('runs a batch over 256 rows unnamed and unpadded (a backlog): no large statement kept in every connection', () => {
    expect([256, 257, 10_000].map(slotsFor)).toEqual([256, 257, 10_000]);
    const backlog = journalInsert(
      Array.from({ length: 10_000 }, (_, i) => entry('a', i)),
      head,
    );
    expect(backlog.name).toBeUndefined();
    expect(backlog.values.length).toBe(4 + 3 * 10_000);
    expect(backlog.values.length).toBeLessThanOrEqual(65_535);
    expect(
      journalInsert(
        Array.from({ length: 200 }, (_, i) => entry('a', i)),
        head,
      ).name,
    ).toBe('petstore-journal-256');
  });
});
