/**
 * One sandbox per data file, over real processes: of two started at the same
 * moment exactly one serves and the other exits 1 without ever listening; a
 * lock left by a killed sandbox is taken over; the QA commands find the
 * running sandbox through the lock and hold it while they work on the file.
 */
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { acquireLock, lockFileOf } from '../../src/store/file/lock.js';
import { KEY, tempDir } from '../support/harness.js';
import { killSandbox, runCli, SandboxExit, spawnSandbox, stopSandbox, type ChildSandbox } from '../support/spawn.js';

const dirs: string[] = [];
const started: ChildSandbox[] = [];
afterAll(async () => {
  // Only after a failure is one still running.
  await Promise.all(started.map(killSandbox));
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});
function dataFile(): string {
  const dir = tempDir('petstore-lock-');
  dirs.push(dir);
  return join(dir, 'db.json');
}
async function start(file: string): Promise<ChildSandbox> {
  const sandbox = await spawnSandbox(file);
  started.push(sandbox);
  return sandbox;
}

/** How a sandbox that must not start ended: it never listened. */
async function refusal(file: string): Promise<SandboxExit> {
  const outcome = await start(file).then(
    () => new Error('it started'),
    (error: unknown) => error,
  );
  expect(outcome).toBeInstanceOf(SandboxExit);
  return outcome as SandboxExit;
}

/** Starts two sandboxes on one file in the same instant; checks that exactly one serves, and returns it. */
async function race(file: string): Promise<ChildSandbox> {
  const pair = await Promise.allSettled([start(file), start(file)]);
  const serving = pair.flatMap((p) => (p.status === 'fulfilled' ? [p.value] : []));
  const refused = pair.flatMap((p) => (p.status === 'rejected' ? [p.reason as unknown] : []));
  expect(serving.length, refused.map(String).join('\n---\n')).toBe(1);
  const [winner, loser] = [serving[0] as ChildSandbox, refused[0]];
  expect(loser).toBeInstanceOf(SandboxExit);
  const { ended, out } = loser as SandboxExit;
  expect(ended.code, out).toBe(1);
  expect(out).not.toContain('listening on');
  expect(out).toMatch(new RegExp(`(in use by|already served by) process ${winner.child.pid}\\b`));
  const res = await fetch(`${winner.origin}/v1/pets?limit=1`, { headers: { authorization: `Bearer ${KEY}` } });
  expect(res.status).toBe(200);
  return winner;
}

/** Nothing but the data, its write-ahead log and (while a sandbox runs) its lock: no temp or takeover files left. */
function leftovers(file: string): string[] {
  return readdirSync(join(file, '..')).filter((name) => !['db.json', 'db.json.log', 'db.json.lock', 'db.json.secret'].includes(name));
}

describe('the lock on the data file', { timeout: 240_000 }, () => {
  it('of two sandboxes started together on one file, exactly one serves; the other exits 1 before listening (4 rounds)', async () => {
    const file = dataFile();
    for (let round = 0; round < 4; round++) {
      const winner = await race(file);
      expect(await stopSandbox(winner)).toEqual({ code: 0, signal: null });
      expect(existsSync(lockFileOf(file))).toBe(false);
      expect(leftovers(file)).toEqual([]);
    }
  });

  it('a lock left by a killed sandbox is taken over, by exactly one of two starting together', async () => {
    const file = dataFile();
    const killed = await start(file);
    killed.child.kill('SIGKILL');
    expect(await killed.exited).toBe('SIGKILL');
    expect(existsSync(lockFileOf(file))).toBe(true);

    const winner = await race(file);
    expect(await stopSandbox(winner)).toEqual({ code: 0, signal: null });
    expect(existsSync(lockFileOf(file))).toBe(false);
    expect(leftovers(file)).toEqual([]);
  });

  it('the QA commands find the running sandbox through its lock', async () => {
    const file = dataFile();
    const sandbox = await start(file);
    // The journal exists only in a running sandbox: found through the lock, or this fails.
    const journal = await runCli(['journal', '--data', file]);
    expect(journal.stderr).toBe('');
    expect(journal.code).toBe(0);
    expect(JSON.parse(journal.stdout)).toMatchObject({ entries: [] });
    expect(await stopSandbox(sandbox)).toEqual({ code: 0, signal: null });
    expect(existsSync(lockFileOf(file))).toBe(false);
  });

  it('while a QA command holds the file, a sandbox is refused without opening it, and so is another command', async () => {
    const file = dataFile();
    const lock = await acquireLock(file, 'reset');
    try {
      const refused = await refusal(file);
      expect(refused.ended.code).toBe(1);
      expect(refused.out).not.toContain('listening on');
      expect(refused.err).toContain(`in use by process ${process.pid} (the QA command 'reset')`);
      // Refused before anything opened, seeded or repaired the data.
      expect(existsSync(file)).toBe(false);

      const command = await runCli(['load', 'empty', '--data', file]);
      expect(command.code).toBe(1);
      expect(command.stderr).toContain(`in use by process ${process.pid}`);
      expect(existsSync(file)).toBe(false);
    } finally {
      lock.release();
    }
    const load = await runCli(['load', 'empty', '--data', file]);
    expect([load.code, load.stderr]).toEqual([0, '']);
    expect(existsSync(lockFileOf(file))).toBe(false);
  });
});
