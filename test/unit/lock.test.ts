/**
 * The lock file's protocol on a real folder: exclusive creation, takeover of
 * a stale lock by exactly one of many claimants at once, release. Claimants
 * in one process interleave at every file operation, which is where two
 * processes would race.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { acquireLock, LockedError, lockFileOf, runningServer, type DataLock } from '../../src/store/file/lock.js';
import { tempDir } from '../support/harness.js';

const dir = tempDir('petstore-lock-unit-');
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const dataFile = () => join(dir, `db-${++n}.json`);

/** The pid of a process that has exited (and been reaped): what a killed sandbox leaves in its lock. */
const deadPid = (() => {
  const run = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(run.stdout);
})();

/** Starts `count` claimants at once; returns the locks they got and how many were refused. */
async function claimAtOnce(file: string, count: number): Promise<{ won: DataLock[]; refused: number }> {
  const outcomes = await Promise.allSettled(Array.from({ length: count }, () => acquireLock(file, 'sandbox')));
  const won = outcomes.flatMap((o) => (o.status === 'fulfilled' ? [o.value] : []));
  for (const o of outcomes) if (o.status === 'rejected') expect(o.reason).toBeInstanceOf(LockedError);
  return { won, refused: outcomes.length - won.length };
}

describe('acquireLock', () => {
  it('is exclusive until released, and the lock is whole from the start', async () => {
    const file = dataFile();
    const lock = await acquireLock(file, 'sandbox');
    expect(JSON.parse(readFileSync(lockFileOf(file), 'utf8'))).toMatchObject({ pid: process.pid, holder: 'sandbox' });
    await expect(acquireLock(file, 'reset')).rejects.toThrow(`${file} is in use by process ${process.pid} (a sandbox starting up)`);
    lock.release();
    expect(existsSync(lockFileOf(file))).toBe(false);
    (await acquireLock(file, 'reset')).release();
  });

  it('names the origin once the sandbox listens, and the QA commands find it', async () => {
    const file = dataFile();
    const lock = await acquireLock(file, 'sandbox');
    expect(runningServer(file)).toBeUndefined();
    await lock.setOrigin('http://127.0.0.1:4999');
    expect(runningServer(file)).toMatchObject({ pid: process.pid, origin: 'http://127.0.0.1:4999' });
    await expect(acquireLock(file, 'sandbox')).rejects.toThrow(`already served by process ${process.pid} at http://127.0.0.1:4999`);
    lock.release();
    expect(runningServer(file)).toBeUndefined();
  });

  it('of 8 claimants at once, exactly one wins; repeated 25 times', async () => {
    const file = dataFile();
    for (let round = 0; round < 25; round++) {
      const { won, refused } = await claimAtOnce(file, 8);
      expect([won.length, refused]).toEqual([1, 7]);
      won[0]?.release();
    }
  });

  it.each([
    ['a dead process', () => JSON.stringify({ pid: deadPid, nonce: 'old', origin: 'http://127.0.0.1:1' })],
    ['an earlier version (no nonce), this very pid', () => JSON.stringify({ pid: process.pid, origin: 'http://127.0.0.1:1' })],
    ['text that is not a lock', () => 'garbage'],
  ])('a stale lock of %s is taken over by exactly one of 8 claimants at once; repeated 25 times', async (_label, content) => {
    const file = dataFile();
    expect(deadPid).toBeGreaterThan(0);
    for (let round = 0; round < 25; round++) {
      writeFileSync(lockFileOf(file), content());
      const { won, refused } = await claimAtOnce(file, 8);
      expect([won.length, refused]).toEqual([1, 7]);
      expect(JSON.parse(readFileSync(lockFileOf(file), 'utf8'))).toMatchObject({ pid: process.pid });
      won[0]?.release();
    }
    expect(readdirSync(dir).filter((name) => name.startsWith(`db-${n}.json.lock`))).toEqual([]);
  });

  it('clears a takeover claim left by a process that died in the middle of one', async () => {
    const file = dataFile();
    writeFileSync(lockFileOf(file), JSON.stringify({ pid: deadPid, nonce: 'old' }));
    writeFileSync(`${lockFileOf(file)}.takeover`, JSON.stringify({ pid: deadPid, nonce: 'claim' }));
    const { won } = await claimAtOnce(file, 4);
    expect(won).toHaveLength(1);
    won[0]?.release();
    expect(readdirSync(dir).filter((name) => name.startsWith(`db-${n}.json`))).toEqual([]);
  });
});
