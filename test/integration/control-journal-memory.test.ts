/**
 * What a client cannot do to the journals: all journals together stay
 * within --journal-memory, the oldest entries going first.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JournalEntry } from '../../src/control/journal.js';
import { startControlSandbox, type Control } from '../support/control-client.js';
import type { TestSandbox } from '../support/harness.js';

const queries = (res: { body: { entries: JournalEntry[] } }) => res.body.entries.map((e) => e.query.n);

describe('--journal-memory', () => {
  let sb: TestSandbox;
  let ctl: Control;
  const budget = 64 * 1024;
  beforeAll(async () => ({ sb, ctl } = await startControlSandbox(['--api-keys', 'key-a,key-b', '--journal-memory', String(budget)])));
  afterAll(() => sb.stop());

  it('drops the oldest entries of all journals first and stays within the budget', async () => {
    // About 9 KiB each: a 4 KiB request body kept as text, counted 2 bytes a character.
    const fat = { name: 'f'.repeat(4000), categoryId: 'not a number' };
    for (let n = 1; n <= 4; n++) expect((await sb.call(`/pets?n=a${n}`, { key: 'key-a', method: 'POST', json: fat })).status).toBe(400);
    for (let n = 1; n <= 4; n++) expect((await sb.call(`/pets?n=b${n}`, { key: 'key-b', method: 'POST', json: fat })).status).toBe(400);
    const a = await ctl('GET', '/journal', { key: 'key-a' });
    const b = await ctl('GET', '/journal', { key: 'key-b' });
    // Seven fit: a1 went first, although key-a's journal is far from its 200 entries.
    expect(queries(a)).toEqual(['a2', 'a3', 'a4']);
    expect(queries(b)).toEqual(['b1', 'b2', 'b3', 'b4']);
    expect(b.body.memory).toMatchObject({ budget, kept: 7, evicted: 1 });
    expect(b.body.memory.bytes).toBeLessThanOrEqual(budget);

    for (let n = 5; n <= 20; n++) await sb.call(`/pets?n=b${n}`, { key: 'key-b', method: 'POST', json: fat });
    // key-a's journal lost all its entries; key-b keeps the newest that fit.
    expect(queries(await ctl('GET', '/journal', { key: 'key-a' }))).toEqual([]);
    const last = await ctl('GET', '/journal', { key: 'key-b' });
    expect(queries(last)).toEqual(['b14', 'b15', 'b16', 'b17', 'b18', 'b19', 'b20']);
    expect(last.body.memory.bytes).toBeLessThanOrEqual(budget);
  });
});
