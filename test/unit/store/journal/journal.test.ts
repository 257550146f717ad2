/**
 * The journal without HTTP: what an entry costs, which entries go when all
 * journals together pass their budget, and how bodies are cut at capture.
 */
import { createHash } from 'node:crypto';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { captureBytes, captureText, JOURNAL_BODY_LIMIT, showBody, textBytes } from '../../../../src/store/journal/body.js';
import { COUNT_BYTES, COUNTS_BYTES } from '../../../../src/store/journal/coverage-tally.js';
import { ENTRY_BYTES, Journal, JOURNAL_BYTES } from '../../../../src/store/journal/journal.js';
import type { JournalRecord } from '../../../../src/store/journal/types.js';

/** A record whose URL names it, e.g. `/v1/pets?n=a1`, with small bodies of fixed length. */
function record(name: string, over: Partial<JournalRecord> = {}): JournalRecord {
  return {
    time: Date.parse('2026-01-05T10:00:00.000Z'),
    method: 'POST',
    url: `/v1/pets?n=${name}`,
    operationId: 'createPet',
    status: 400,
    durationMs: 1.5,
    request: captureBytes(Buffer.from('{"name":"Rex"}')),
    response: captureText('{"code":"invalid_request","message":"x","status":400}'),
    ...over,
  };
}

/** Bytes one `record(name)` is accounted, names of equal length. */
const E = ENTRY_BYTES + textBytes(record('a1').url) + textBytes('{"name":"Rex"}') + textBytes('{"code":"invalid_request","message":"x","status":400}');
const R = JOURNAL_BYTES;
/** Bytes a journal's coverage counts hold: every `record` is one operation and status, so one count. Kept until the journal is cleared. */
const T = COUNTS_BYTES + COUNT_BYTES;
/** The budget tests' budget: three entries in two journals, with their counts. */
const B = 2 * (R + T) + 3 * E;
const names = (journal: Journal, id: string) => journal.read(id).map((e) => e.query.n);

describe('journal accounting', () => {
  it('counts each entry as its strings as V8 stores them plus a fixed overhead, and each journal once', () => {
    const journal = new Journal(200, 1e9);
    journal.add('a', record('a1'));
    expect(journal.memory()).toEqual({ bytes: R + T + E, budget: 1e9, kept: 1, evicted: 0 });
    journal.add('a', record('a2'));
    journal.add('b', record('b1'));
    expect(journal.memory()).toEqual({ bytes: 2 * (R + T) + 3 * E, budget: 1e9, kept: 3, evicted: 0 });
    // Another status is one more count.
    journal.add('b', record('b2', { status: 201 }));
    expect(journal.memory()).toEqual({ bytes: 2 * (R + T) + COUNT_BYTES + 4 * E, budget: 1e9, kept: 4, evicted: 0 });
    expect(journal.clear('a')).toBe(2);
    expect(journal.memory()).toMatchObject({ bytes: R + T + COUNT_BYTES + 2 * E, kept: 2 });
    expect(journal.clear('b')).toBe(2);
    expect(journal.memory()).toMatchObject({ bytes: 0, kept: 0 });
  });

  it('keeps nothing with a size of 0, and with a budget of 0 drops each entry at once, its journal and counts with it', () => {
    const none = new Journal(0, 1e9);
    none.add('a', record('a1'));
    expect(none.memory()).toMatchObject({ bytes: 0, kept: 0 });
    const broke = new Journal(200, 0);
    broke.add('a', record('a1'));
    expect(broke.read('a')).toEqual([]);
    expect(broke.memory()).toMatchObject({ bytes: 0, kept: 0, evicted: 1 });
  });
});

describe('journal budget', () => {
  it('drops the oldest entries of all journals first, whichever journal holds them', () => {
    const journal = new Journal(200, B);
    for (const [id, name] of [
      ['a', 'a1'],
      ['a', 'a2'],
      ['b', 'b1'],
      ['b', 'b2'],
      ['a', 'a3'],
    ] as const)
      journal.add(id, record(name));
    // b2 pushed out a1, a3 pushed out a2: never the newer entries of the journal that grew.
    expect(names(journal, 'a')).toEqual(['a3']);
    expect(names(journal, 'b')).toEqual(['b1', 'b2']);
    expect(journal.memory()).toEqual({ bytes: 2 * (R + T) + 3 * E, budget: B, kept: 3, evicted: 2 });
  });

  it('releases a journal whose entries are all gone, and its bytes with it', () => {
    const journal = new Journal(200, B);
    for (const [id, name] of [
      ['a', 'a1'],
      ['b', 'b1'],
      ['a', 'a2'],
      ['c', 'c1'],
    ] as const)
      journal.add(id, record(name));
    // c1 needs a third journal: a1, then b1 go, and with b1 the whole of journal b, its counts too.
    expect(names(journal, 'a')).toEqual(['a2']);
    expect(names(journal, 'b')).toEqual([]);
    expect(names(journal, 'c')).toEqual(['c1']);
    // a keeps counting what it evicted; b's counts went with it.
    expect(journal.counts('a')).toEqual([{ operationId: 'createPet', status: 400, count: 2 }]);
    expect(journal.counts('b')).toEqual([]);
    expect(journal.memory()).toMatchObject({ bytes: 2 * (R + T) + 2 * E, kept: 2, evicted: 2 });
  });

  it('keeps the order of all journals when one drops entries past its own size', () => {
    const journal = new Journal(2, B);
    for (const [id, name] of [
      ['a', 'a1'],
      ['b', 'b1'],
      ['a', 'a2'],
      ['a', 'a3'],
    ] as const)
      journal.add(id, record(name));
    expect(names(journal, 'a')).toEqual(['a2', 'a3']);
    expect(journal.memory()).toMatchObject({ kept: 3, evicted: 0 });
    // Each new entry passes the budget: b1 is now the oldest of all, then a2.
    journal.add('c', record('c1'));
    expect(names(journal, 'b')).toEqual([]);
    expect(names(journal, 'a')).toEqual(['a2', 'a3']);
    journal.add('c', record('c2'));
    expect(names(journal, 'a')).toEqual(['a3']);
    expect(names(journal, 'c')).toEqual(['c1', 'c2']);
    // Entries past the journal's size or the budget are still counted while the journal lives.
    expect(journal.counts('a')).toEqual([{ operationId: 'createPet', status: 400, count: 3 }]);
    expect(journal.counts(undefined)).toEqual([{ operationId: 'createPet', status: 400, count: 5 }]);
    expect(journal.memory()).toMatchObject({ bytes: 2 * (R + T) + 3 * E, kept: 3, evicted: 2 });
  });

  it('after a journal is cleared, the next oldest of the others goes first', () => {
    const journal = new Journal(200, B);
    for (const [id, name] of [
      ['a', 'a1'],
      ['b', 'b1'],
      ['a', 'a2'],
    ] as const)
      journal.add(id, record(name));
    journal.clear('a');
    journal.add('a', record('a3'));
    journal.add('a', record('a4'));
    journal.add('a', record('a5'));
    expect(names(journal, 'b')).toEqual([]);
    expect(names(journal, 'a')).toEqual(['a3', 'a4', 'a5']);
  });
});

describe('journal reading', () => {
  it('returns the newest `limit` entries, oldest first, with bodies shown and specValid checked on read', () => {
    const seen: unknown[] = [];
    const undocumented = { in: 'status', name: '', message: 'not documented' };
    const journal = new Journal(200, 1e9, (op, status, body) => {
      seen.push([op, status, body]);
      return status === 400 ? [] : [undocumented];
    });
    journal.add('a', record('a1'));
    journal.add('a', record('a2', { status: 500, specIssues: [] }));
    journal.add('a', record('a3', { request: undefined }));
    journal.add('a', record('a4', { status: 501 }));
    const [first, ...rest] = journal.read('a');
    expect(rest.map((e) => e.query.n)).toEqual(['a2', 'a3', 'a4']);
    expect(first).toEqual({
      time: '2026-01-05T10:00:00.000Z',
      method: 'POST',
      path: '/v1/pets',
      query: { n: 'a1' },
      operationId: 'createPet',
      status: 400,
      durationMs: 1.5,
      requestBody: { name: 'Rex' },
      responseBody: { code: 'invalid_request', message: 'x', status: 400 },
      specValid: true,
    });
    // a2's validity was settled at capture; a3 had no body; a4's check says why it is not valid.
    expect(rest.map((e) => [e.specValid, e.requestBody, e.specIssues])).toEqual([
      [true, { name: 'Rex' }, undefined],
      [true, null, undefined],
      [false, { name: 'Rex' }, [undocumented]],
    ]);
    expect(seen).toHaveLength(3);
    expect(journal.read('a', 1).map((e) => e.query.n)).toEqual(['a4']);
    expect(journal.read('a', 0)).toEqual([]);
    expect(journal.read('nobody')).toEqual([]);
  });
});

describe('bodies cut at capture', () => {
  it('keeps a body of up to JOURNAL_BODY_LIMIT characters whole, and the start of a longer one', () => {
    const whole = 'a'.repeat(JOURNAL_BODY_LIMIT);
    expect(captureText(whole)).toEqual({ text: whole, size: JOURNAL_BODY_LIMIT, truncated: false, utf8: true });
    expect(captureText(`${whole}b`)).toEqual({ text: whole, size: JOURNAL_BODY_LIMIT + 1, truncated: true, utf8: true });
    expect(captureText('x'.repeat(1_000_000)).text).toHaveLength(JOURNAL_BODY_LIMIT);
  });

  it('counts request bodies in bytes and cuts them in characters, whatever their width', () => {
    // '€' is 3 bytes of UTF-8: 4096 of them still fit whole, 4097 do not.
    const euros = (n: number) => Buffer.from('€'.repeat(n));
    expect(captureBytes(euros(JOURNAL_BODY_LIMIT))).toEqual({
      text: '€'.repeat(JOURNAL_BODY_LIMIT),
      size: 3 * JOURNAL_BODY_LIMIT,
      truncated: false,
      utf8: true,
    });
    expect(captureBytes(euros(JOURNAL_BODY_LIMIT + 1))).toEqual({
      text: '€'.repeat(JOURNAL_BODY_LIMIT),
      size: 3 * (JOURNAL_BODY_LIMIT + 1),
      truncated: true,
      utf8: true,
    });
    const big = captureBytes(Buffer.alloc(100 * 1024, 'x'));
    expect([big.text.length, big.size, big.truncated]).toEqual([JOURNAL_BODY_LIMIT, 100 * 1024, true]);
  });

  it('shows JSON as its value, anything else as text with `truncated`', () => {
    expect(showBody(undefined)).toBeNull();
    expect(showBody(captureText('{"a":[1,2]}'))).toEqual({ a: [1, 2] });
    expect(showBody(captureBytes(Buffer.from('{"a":')))).toEqual({ truncated: false, size: 5, text: '{"a":' });
    expect(showBody(captureBytes(Buffer.from('\ufeff{}')))).toEqual({ truncated: false, size: 5, text: '\ufeff{}' });
    // Bytes that are not UTF-8 are never shown as a value, though their U+FFFD text would parse.
    const latin1 = Buffer.from('{"name":"\xff"}', 'latin1');
    expect(showBody(captureBytes(latin1))).toEqual({ truncated: false, size: 12, text: '{"name":"\ufffd"}' });
    const long = `[${'1,'.repeat(3000)}1]`;
    expect(showBody(captureText(long))).toEqual({ truncated: true, size: long.length, text: long.slice(0, JOURNAL_BODY_LIMIT) });
  });
});

describe('journal accounting against the heap', () => {
  /** A full garbage collection: the flag can be set at run time, and takes effect in a new context. */
  const collect = (() => {
    setFlagsFromString('--expose-gc');
    return runInNewContext('gc') as () => void;
  })();

  it.each([
    ['one-byte text, few journals', 'a', 50],
    ['two-byte text, few journals', 'ж', 50],
    ['two-byte text, a journal per entry', 'ж', Infinity],
  ])('counts at least what the heap holds for its entries (%s)', (_label, char, journals) => {
    const n = 20_000;
    // The journal lives only in this function's frame: once it returns, nothing (not a register of a
    // frame still running) can hold it, so the collection after it frees what the journal held.
    const fill = () => {
      const journal = new Journal(200, 1e12);
      for (let i = 0; i < n; i++) {
        // Fresh strings of varied length, built as the server builds them: decoded from bytes.
        const url = Buffer.from(`/v1/pets?limit=${i % 100}&n=${i}`).toString();
        const id = createHash('sha256')
          .update(String(i % journals))
          .digest('hex')
          .slice(0, 16);
        journal.add(
          id,
          record(String(i), {
            url,
            request: captureBytes(Buffer.from(`{"name":"${char.repeat(i % 60)}${i}","categoryId":"x"}`)),
            response: captureText(JSON.stringify({ code: 'invalid_request', message: `Bad ${char.repeat(i % 40)} ${i}`, status: 400 })),
          }),
        );
      }
      collect();
      return { withJournal: process.memoryUsage().heapUsed, ...journal.memory() };
    };
    // What the journal holds is what letting it go frees: measured that way, the heap's other growth
    // meanwhile (code compiled late, the runner's own bookkeeping) is not counted against it.
    const { withJournal, kept, bytes } = fill();
    collect();
    const held = withJournal - process.memoryUsage().heapUsed;
    expect(kept).toBe(Math.min(n, journals * 200));
    expect(held).toBeGreaterThan(0);
    expect(bytes).toBeGreaterThanOrEqual(held);
  });
});

describe('following a journal (the live tail)', () => {
  it("tells each follower of a journal its new entries, as shown, and stops when told; other journals' entries are not told", () => {
    const journal = new Journal(200, 1e9);
    const seen: unknown[] = [];
    const stop = journal.follow('a', (entry) => seen.push(entry.query.n));
    journal.add('a', record('a1'));
    journal.add('b', record('b1'));
    journal.add('a', record('a2'));
    stop();
    journal.add('a', record('a3'));
    expect(seen).toEqual(['a1', 'a2']);
    expect(names(journal, 'a')).toEqual(['a1', 'a2', 'a3']);
  });

  it('keeps each follower until it stops, whatever the others do', () => {
    const journal = new Journal(200, 1e9);
    const one: unknown[] = [];
    const two: unknown[] = [];
    const stopOne = journal.follow('a', (entry) => one.push(entry.query.n));
    const stopTwo = journal.follow('a', (entry) => two.push(entry.query.n));
    journal.add('a', record('a1'));
    stopOne();
    stopOne();
    journal.add('a', record('a2'));
    stopTwo();
    expect([one, two]).toEqual([['a1'], ['a1', 'a2']]);
  });
});
