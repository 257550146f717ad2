/**
 * A torn or corrupt tail of the commit log, made by hand (what a crash in
 * the middle of an append, or a disk that lies, leaves behind): the sandbox
 * starts, cuts the log at the first bad record before anything appends
 * (keeping the cut bytes in `<data>.log.discarded-<time>` and warning on
 * stderr), and everything acknowledged survives later creates and another
 * restart. Without the cut, the next append lands right after the garbage
 * and the following start refuses the log as corrupt.
 */
import { createHash } from 'node:crypto';
import { appendFileSync, existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../support/harness.js';
import { createPet, DEFAULT_KEY, expectLedgerKept } from '../support/ledger-calls.js';
import { PetLedger } from '../support/pet-ledger.js';
import { killSandbox, spawnSandbox, stopSandbox, type ChildSandbox } from '../support/spawn.js';

const HALF_A_LINE = Buffer.from('{"e":0,"pet":{"id":987654,"name":"torn in the mid');

/** Bytes that look random but are the same on every run, with line breaks inside (not at the end). */
function noise(length: number): Buffer {
  const blocks: Buffer[] = [];
  let block = Buffer.from('petstore');
  while (blocks.length * 32 < length) blocks.push((block = createHash('sha256').update(block).digest()));
  const bytes = Buffer.concat(blocks).subarray(0, length);
  bytes[Math.floor(length / 3)] = 0x0a;
  bytes[Math.floor((2 * length) / 3)] = 0x0a;
  bytes[length - 1] = 0x7b; // Not a line break: the tail stays unfinished.
  return bytes;
}

/** The first half of the log's last record: its last line, or its last 64 bytes if it does not end with a line break. */
function cutLastRecord(log: Buffer): Buffer {
  if (log.length === 0) throw new Error('the log is empty after a kill: nothing to copy');
  const last = log.at(-1) === 0x0a ? log.subarray(log.lastIndexOf(0x0a, log.length - 2) + 1) : log.subarray(Math.max(0, log.length - 64));
  return Buffer.from(last.subarray(0, Math.ceil(last.length / 2)));
}

const VARIANTS: { name: string; stop: 'SIGTERM' | 'SIGKILL'; garbage: (log: Buffer) => Buffer }[] = [
  { name: 'half a JSON line after a clean stop', stop: 'SIGTERM', garbage: () => HALF_A_LINE },
  { name: 'half a JSON line after a kill', stop: 'SIGKILL', garbage: () => HALF_A_LINE },
  { name: 'binary noise with line breaks after a kill', stop: 'SIGKILL', garbage: () => noise(300) },
  { name: "the first half of the log's own last record after a kill", stop: 'SIGKILL', garbage: cutLastRecord },
];

const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

async function createAll(sb: ChildSandbox, ledger: PetLedger, count: number): Promise<void> {
  for (let i = 0; i < count; i += 1) expect((await createPet(sb.origin, DEFAULT_KEY, ledger)).status).toBe(201);
}

async function stop(sb: ChildSandbox, how: 'SIGTERM' | 'SIGKILL'): Promise<void> {
  if (how === 'SIGTERM') expect(await stopSandbox(sb)).toEqual({ code: 0, signal: null });
  else {
    sb.child.kill('SIGKILL');
    expect(await sb.ended).toEqual({ code: null, signal: 'SIGKILL' });
  }
}

describe('a torn commit log tail, made by hand', () => {
  it.each(VARIANTS)(
    '$name: starts, cuts it off, and keeps every acknowledged pet through more creates and restarts',
    { timeout: 90_000 },
    async ({ stop: how, garbage }) => {
      const dir = tempDir('petstore-torn-');
      dirs.push(dir);
      const dataFile = join(dir, 'db.json');
      const logFile = `${dataFile}.log`;
      const ledger = new PetLedger('torn');
      let sb: ChildSandbox | undefined;
      try {
        sb = await spawnSandbox(dataFile, ['--count', '3']);
        await createAll(sb, ledger, 5);
        await stop(sb, how);

        const bad = garbage(existsSync(logFile) ? readFileSync(logFile) : Buffer.alloc(0));
        appendFileSync(logFile, bad);
        sb = await spawnSandbox(dataFile, ['--count', '3']);
        const firstStartErrors = sb.stderr();
        await expectLedgerKept(sb.origin, ledger);
        await createAll(sb, ledger, 3);
        await stop(sb, 'SIGKILL');

        // The appends after the garbage must not have made the log unreadable.
        sb = await spawnSandbox(dataFile, ['--count', '3']);
        await expectLedgerKept(sb.origin, ledger);
        await createAll(sb, ledger, 1);
        await expectLedgerKept(sb.origin, ledger);
        expect(await stopSandbox(sb)).toEqual({ code: 0, signal: null });

        // The cut bytes were kept aside, exactly, and the operator was told.
        const discarded = readdirSync(dir).filter((name) => name.startsWith('db.json.log.discarded-'));
        expect(discarded, `files: ${readdirSync(dir).join(', ')}`).toHaveLength(1);
        expect(readFileSync(join(dir, discarded[0] as string)).equals(bad)).toBe(true);
        expect(firstStartErrors).toMatch(/db\.json\.log/);
      } finally {
        await killSandbox(sb);
      }
    },
  );
});
