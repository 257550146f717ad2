/**
 * The request log's destination on real files and a real process: lines
 * wait in its buffer off the request's path, a full buffer drops and
 * counts, and a flush or the process's end (a crash too) writes what waits.
 */
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { asyncDestination, DROP_NOTICE_EVERY_MS } from '../../src/ops/log-destination.js';

const dirs: string[] = [];
const fds: number[] = [];
afterEach(() => {
  vi.useRealTimers();
  for (const fd of fds.splice(0)) closeSync(fd);
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A new empty file, open for writing: its descriptor, and a reader of what it holds. */
function logFile() {
  const dir = mkdtempSync(join(tmpdir(), 'petstore-log-'));
  dirs.push(dir);
  const file = join(dir, 'log.jsonl');
  const fd = openSync(file, 'w');
  fds.push(fd);
  return { fd, lines: () => readFileSync(file, 'utf8').split('\n').filter(Boolean) };
}

/** A line of exactly 100 bytes with its newline. */
const line = (n: number) => `${String(n).padStart(99, '0')}\n`;

describe('the log destination', () => {
  it('keeps lines off the disk while they are few, and writes them all on flush', () => {
    const log = logFile();
    const out = asyncDestination({ fd: log.fd });
    for (let n = 0; n < 3; n += 1) out.write(line(n));
    // Written synchronously per line, they would be in the file already.
    expect(log.lines()).toEqual([]);
    out.flush();
    expect(log.lines()).toEqual([0, 1, 2].map((n) => line(n).trim()));
    expect(out.dropped()).toBe(0);
  });

  it('drops the lines past its bound, counts them, says so once, and keeps the rest in order', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const log = logFile();
    const told: number[] = [];
    const out = asyncDestination({ fd: log.fd, maxPending: 1000, onDropped: (lines) => told.push(lines) });
    for (let n = 0; n < 100; n += 1) out.write(line(n));
    // 10 lines of 100 bytes fill 1000 bytes; each later one would pass the bound.
    expect(out.dropped()).toBe(90);
    expect(told).toEqual([]);
    vi.advanceTimersByTime(DROP_NOTICE_EVERY_MS);
    expect(told).toEqual([90]);
    out.flush();
    expect(log.lines()).toEqual(Array.from({ length: 10 }, (_, n) => line(n).trim()));
    // The flush made room: lines are kept again, and the next notice tells only the new drops.
    for (let n = 0; n < 20; n += 1) out.write(line(200 + n));
    expect(out.dropped()).toBe(100);
    out.flush();
    expect(told).toEqual([90, 10]);
    expect(log.lines()).toHaveLength(20);
  });

  it('writes the lines buffered before a crash, and the crash still ends the process with its error', () => {
    const script = [
      "import { asyncDestination } from './src/ops/log-destination.ts';",
      'const out = asyncDestination({ fd: 1 });',
      "out.write('first\\n'); out.write('second\\n');",
      "throw new Error('crash under test');",
    ].join('\n');
    const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8', timeout: 60_000 });
    expect(child.status).toBe(1);
    expect(child.stderr).toContain('crash under test');
    expect(child.stdout).toBe('first\nsecond\n');
  });

  it('on a pipe nobody reads, drops and counts lines past its bound instead of holding the process, and cuts no line but the last one at exit', async () => {
    const script = [
      "import { asyncDestination } from './src/ops/log-destination.ts';",
      'const out = asyncDestination({ fd: 1, maxPending: 1 << 20 });',
      // 100,000 lines of 100 bytes (10 MB) in bursts of 1,000, as requests come: ten times the bound, far more than a pipe holds.
      "const line = 'x'.repeat(99) + '\\n';",
      'let bursts = 0;',
      'const burst = () => { for (let k = 0; k < 1000; k++) out.write(line); if (++bursts < 100) setImmediate(burst); else { process.stderr.write(String(out.dropped())); process.exit(0); } };',
      'burst();',
    ].join('\n');
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    // Listened to from the start (no chunk missed), but paused: the stream takes one buffer's worth, then the pipe stays full.
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stdout.pause();
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    // Read on once the writer is gone.
    child.stdout.resume();
    await new Promise((resolve) => child.stdout.once('close', resolve));
    expect(code).toBe(0);
    const dropped = Number(err);
    expect(dropped).toBeGreaterThan(0);
    const kept = out.split('\n');
    // The exit writes what the full pipe takes and no more: only the very last line may be cut.
    const last = kept.pop() as string;
    expect(last.length < 99 && 'x'.repeat(99).startsWith(last), last).toBe(true);
    expect(kept.filter((l) => l !== 'x'.repeat(99)).map((l) => l.length)).toEqual([]);
    expect(kept.length + dropped).toBeLessThanOrEqual(100_000);
  }, 60_000);

  it('on a pipe read slower than it is written, delivers every line whole and in order (what the pipe refuses waits)', async () => {
    const lines = 50_000;
    const script = [
      "import { asyncDestination } from './src/ops/log-destination.ts';",
      // A pipe as Node makes stdout of a child: written to without blocking, so a full pipe refuses (in part or whole).
      'process.stdout._handle?.setBlocking?.(false);',
      'const out = asyncDestination({ fd: 1 });',
      "let n = 0; const line = () => String(n++).padStart(99, '0') + '\\n';",
      // Bursts of 100 KB, more than the pipe holds; the process lives until its reader has all it wanted.
      `const burst = () => { for (let k = 0; k < 1000; k++) out.write(line()); if (n < ${lines}) setImmediate(burst); };`,
      "burst(); process.stdin.resume(); process.stdin.on('end', () => process.stderr.write(String(out.dropped())));",
    ].join('\n');
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.length >= lines * 100) child.stdin.end();
      // A slow reader: the writer finds the pipe full again and again.
      child.stdout.pause();
      setImmediate(() => child.stdout.resume());
    });
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(0);
    expect(err).toBe('0');
    const kept = out.split('\n').filter(Boolean);
    expect(kept).toHaveLength(lines);
    expect(kept.findIndex((l, i) => l !== String(i).padStart(99, '0'))).toBe(-1);
  }, 60_000);
});
