import { describe, expect, it } from 'vitest';
import type { JournalRecord } from '../../../src/store/journal/types.js';
import { captureBytes, captureText } from '../../../src/store/journal/body.js';
import { journalInsert, recordJson, slotsFor } from '../../../src/store/postgres/journal-insert.js';

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

describe("a journal row's record", () => {
  const record = (response: JournalRecord['response'], extra: Partial<JournalRecord> = {}): JournalRecord => ({
    time: 1_700_000_000_000,
    method: 'GET',
    url: '/v1/pets',
    operationId: 'listPets',
    status: 200,
    durationMs: 0.4,
    request: undefined,
    response,
    ...extra,
  });
  const page = (n: number) => JSON.stringify(Array.from({ length: n }, (_, id) => ({ id, name: `Pet "${id}" \\ \u00e9\n`, status: 'available' })));

  it('is the JSON of the record, whatever its response: short, long and repeated, cut, not UTF-8, or none', () => {
    const long = page(40);
    const records = [
      record(undefined),
      record(captureText('{"a":1}')),
      record(captureText(long)),
      record(captureText(long), { status: 201, credential: 'sk…ab' }),
      record(captureText(page(41))),
      record(captureText(page(400))),
      record(captureBytes(Buffer.from(`{"name":"${'\xff'.repeat(600)}"}`, 'latin1'))),
      record(captureText(long), { specIssues: [{ in: 'body', name: '/0', message: 'must have "id"' }] }),
    ];
    for (const r of records) expect(JSON.parse(recordJson(r))).toEqual(JSON.parse(JSON.stringify(r)));
    // The long page's escaping is remembered, not its record: the second entry differs only outside the text.
    expect(recordJson(records[3] as JournalRecord)).toContain('"credential":"sk…ab"');
  });
});
