/**
 * The commit log on real files: records come back in order, a torn or
 * corrupt tail is cut (and kept aside) before anything appends, and damage
 * in the middle stops start-up with the log untouched.
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { encodeRecord, type CommitLog } from '../../../src/store/file/commit-log.js';
import { openCommitLog } from '../../../src/store/file/recover.js';
import { StoreError } from '../../../src/kernel/store-errors.js';
import { tempDir } from '../../support/harness.js';

const record = (n: number) => encodeRecord(JSON.stringify({ e: 0, pet: { id: n, name: `p${n} ✓`, categoryId: 1 } }));

/** Opens the log, collecting what it replays and what it warns about. */
async function openLog(file: string): Promise<{ log: CommitLog; records: unknown[]; warnings: string[] }> {
  const records: unknown[] = [];
  const warnings: string[] = [];
  const log = await openCommitLog(
    file,
    (r) => records.push(r) > 0,
    (w) => warnings.push(w),
  );
  return { log, records, warnings };
}

const ids = (records: unknown[]) => records.map((r) => (r as { pet: { id: number } }).pet.id);

function logWith(text: string): string {
  const file = join(tempDir('petstore-log-'), 'db.json.log');
  writeFileSync(file, text);
  return file;
}

describe('CommitLog', () => {
  it('gives back appended records in order after a reopen', async () => {
    const file = join(tempDir('petstore-log-'), 'db.json.log');
    const { log } = await openLog(file);
    await log.append(record(1) + record(2));
    await log.append(record(3));
    await log.close();
    const again = await openLog(file);
    expect(ids(again.records)).toEqual([1, 2, 3]);
    expect(again.warnings).toEqual([]);
    await again.log.close();
  });

  it.each([
    ['half a record', (whole: string) => whole.slice(0, 20)],
    ['a record without its newline', (whole: string) => whole.slice(0, -1)],
    ['a record with a wrong checksum', (whole: string) => whole.replace('p3', 'p4')],
    ['a record whose length is wrong', (whole: string) => whole.replace(/ (\d+) /, (_m, n: string) => ` ${Number(n) + 1} `)],
    ['random bytes', () => '\u0000\u00ff#garbage'],
    ['half a line of plain JSON', () => '{"e":0,"pet":{"id":3,"na'],
  ])('cuts a tail of %s, keeps the cut bytes aside, and appends after the last good record', async (_label, tear) => {
    const good = record(1) + record(2);
    const torn = tear(record(3));
    const file = logWith(good + torn);
    const { log, records, warnings } = await openLog(file);
    expect(ids(records)).toEqual([1, 2]);
    expect(statSync(file).size).toBe(Buffer.byteLength(good));
    expect(warnings).toHaveLength(1);
    const aside = readdirSync(join(file, '..')).find((f) => f.startsWith('db.json.log.discarded-'));
    expect(aside && readFileSync(join(file, '..', aside), 'utf8')).toBe(torn);
    await log.append(record(3));
    await log.close();
    expect(ids((await openLog(file)).records)).toEqual([1, 2, 3]);
  });

  it('refuses a log with damage in the middle (whole records after a bad one), leaving it untouched', async () => {
    const text = `${record(1)}#garbage#\n${record(2)}`;
    const file = logWith(text);
    const error = await openLog(file).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreError);
    expect((error as Error).message).toMatch(new RegExp(`${file}.*line 2`));
    expect(readFileSync(file, 'utf8')).toBe(text);
  });

  it('takes a plain JSON line (no checksum, a form the log never wrote) for corruption, not a record', async () => {
    const plain = `${JSON.stringify({ e: 0, pet: { id: 1, name: 'plain', categoryId: 1 } })}\n`;
    // Whole records after it: damage, start-up stops and the log stays as it is.
    const text = `${plain}${record(2)}`;
    const file = logWith(text);
    const error = await openLog(file).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreError);
    expect((error as Error).message).toMatch(new RegExp(`${file} is corrupt at line 1`));
    expect(readFileSync(file, 'utf8')).toBe(text);
    // Last in the log: cut as a torn tail, kept aside, never replayed.
    const tail = logWith(`${record(1)}${plain}`);
    const { records, warnings } = await openLog(tail);
    expect(ids(records)).toEqual([1]);
    expect(warnings).toHaveLength(1);
    expect(readFileSync(tail, 'utf8')).toBe(record(1));
  });

  it('a record the store does not recognise ends the log like a torn one', async () => {
    const file = logWith(record(1) + encodeRecord('{"something":"else"}'));
    const records: unknown[] = [];
    const log = await openCommitLog(
      file,
      (r) => (r as { pet?: unknown }).pet !== undefined && records.push(r) > 0,
      () => undefined,
    );
    expect(ids(records)).toEqual([1]);
    await log.close();
  });

  it('clear empties the log', async () => {
    const file = logWith(record(1));
    const { log } = await openLog(file);
    expect(log.empty).toBe(false);
    await log.clear();
    expect(log.empty).toBe(true);
    await log.append(record(5));
    await log.close();
    expect(ids((await openLog(file)).records)).toEqual([5]);
  });
});
