/** The soak's pass/fail rules (test/bench/soak-rules.ts, docs/soak.md) on made-up windows: each passes flat data and fails what it must. */
import { describe, expect, it } from 'vitest';
import { answersCheck, descriptorCheck, diskCheck, ledgerCheck, memoryCheck, sigtermCheck, slope, type SoakLimits } from '../../bench/soak-rules.js';
import type { SoakWindow } from '../../bench/soak-window.js';

const LIMITS: SoakLimits = { slopeMbPerMin: 3, growthMb: 8, fdMargin: 10, sigtermMs: 10_000 };

/** Load windows of 15 s whose lowest RSS readings are `floors` (MB); the medians and peaks jump about above them. */
const windows = (floors: number[]): SoakWindow[] =>
  floors.map((floor, i) => ({
    phase: 'load',
    atSec: 15 * (i + 1),
    requests: 4500,
    rps: 300,
    p50: 2,
    p99: 30,
    unexpected: 0,
    newKeys: 60,
    streams: 60,
    rssMinMb: floor,
    rssMb: floor + (i % 2 ? 30 : 5),
    rssMaxMb: floor + 40,
    rssSamples: [],
    fds: 40,
    fdsMax: 60,
  }));

describe('memoryCheck', () => {
  const flat = (n: number, mb = 128) => Array.from({ length: n }, () => mb);

  it('passes a flat floor however its medians saw up and down', () => {
    const check = memoryCheck(windows([120, 126, 127, 127, 128, 127, 128, 128, 127, 128, 128, 128, 128, 127, 128, 128]), LIMITS);
    expect(check).toMatchObject({ pass: true, judged: true });
  });

  it('fails a floor that keeps rising through the second half, and says by how much', () => {
    const rising = Array.from({ length: 16 }, (_, i) => 120 + 2 * i); // 8 MB a minute
    const check = memoryCheck(windows(rising), LIMITS);
    expect(check.pass).toBe(false);
    expect(check.detail).toBe('second half (6 floors, at 165-240 s): RSS floor 136.0 MB -> 146.0 MB, slope 8.00 MB/min (limit 3), growth 10.0 MB (limit 8 MB)');
  });

  it('passes lowest readings that saw up and down over a garbage collection cycle longer than a window, and fails the same over a rise', () => {
    const sawtooth = Array.from({ length: 16 }, (_, i) => [100, 130, 115][i % 3] as number);
    expect(memoryCheck(windows(sawtooth), LIMITS).pass).toBe(true);
    expect(memoryCheck(windows(sawtooth.map((mb, i) => mb + 2 * i)), LIMITS).pass).toBe(false);
  });

  it('needs both: a steep slope over a small growth passes, and so does a peak that comes back down', () => {
    const slow = memoryCheck(windows(Array.from({ length: 16 }, (_, i) => 100 + i)), LIMITS); // 4 MB a minute, 5 MB in the floors judged
    expect(slow).toMatchObject({ pass: true, detail: expect.stringContaining('slope 4.00 MB/min (limit 3), growth 5.0 MB') as unknown });
    expect(memoryCheck(windows([...flat(11, 100), 130, 100, 100, 100, 100]), LIMITS).pass).toBe(true);
  });

  it('judges the later half only: growth that stopped before it passes, growth within it fails', () => {
    expect(memoryCheck(windows([100, 110, 120, 130, 140, ...flat(7, 150)]), LIMITS).pass).toBe(true);
    expect(memoryCheck(windows([...flat(8, 100), 110, 120, 130]), LIMITS).pass).toBe(false);
  });

  it('does not judge fewer than 9 windows', () => {
    expect(memoryCheck(windows([100, 120, 140, 160, 180, 200, 220, 240]), LIMITS)).toMatchObject({ pass: true, judged: false });
    expect(memoryCheck(windows([100, 120, 140, 160, 180, 200, 220, 240, 260]), LIMITS)).toMatchObject({ pass: false, judged: true });
  });
});

describe('slope', () => {
  it('is the least-squares slope', () => {
    expect(slope([0, 1, 2, 3], [1, 3, 5, 7])).toBe(2);
    expect(slope([0, 1, 2], [5, 5, 5])).toBe(0);
    expect(slope([1, 1], [2, 9])).toBe(0);
  });
});

describe('diskCheck', () => {
  const counted = (files: number[]) => windows(files.map(() => 128)).map((w, i) => ({ ...w, files: files[i] }));

  it('passes a data folder that stopped growing before the second half, within its margin', () => {
    expect(diskCheck(counted([500, 1000, 1500, 2000, 2010, 2000, 2030, 2100]))).toMatchObject({ pass: true, judged: true });
  });

  it('fails one that keeps growing, and says by how much', () => {
    expect(diskCheck(counted([100, 200, 300, 400, 500, 600, 700, 800]))).toMatchObject({
      pass: false,
      detail: 'second half: 500 files at 75 s, 800 at 120 s (margin 50)',
    });
  });

  it('does not apply where files are not counted (PostgreSQL)', () => {
    expect(diskCheck(windows([128, 128, 128, 128]))).toBeUndefined();
  });
});

describe('descriptorCheck', () => {
  it('passes within the margin of the baseline and fails past it', () => {
    expect(descriptorCheck({ rssMb: 100, fds: 20 }, { rssMb: 100, fds: 30 }, LIMITS).pass).toBe(true);
    const check = descriptorCheck({ rssMb: 100, fds: 20 }, { rssMb: 100, fds: 31 }, LIMITS);
    expect(check).toMatchObject({ pass: false, detail: '31 open after the settle, 20 at the baseline (margin 10)' });
  });
});

describe('ledgerCheck, answersCheck, sigtermCheck', () => {
  it('fail on the first lost write, unexpected answer or missed SIGTERM, and name it', () => {
    expect(ledgerCheck([], 500).pass).toBe(true);
    expect(ledgerCheck(['workspace soak-steady, at the end: id 7 (soak-steady-r3.2) was answered 201 and is missing'], 500)).toMatchObject({
      pass: false,
      detail: expect.stringContaining('id 7 (soak-steady-r3.2) was answered 201 and is missing') as unknown,
    });
    expect(answersCheck(0, []).pass).toBe(true);
    expect(answersCheck(2, ['GET /v1/pets answered 500: {}']).detail).toBe('2 unexpected; first: GET /v1/pets answered 500: {}');
    expect(sigtermCheck(40, LIMITS).pass).toBe(true);
    expect(sigtermCheck('killed', LIMITS)).toMatchObject({ pass: false, detail: 'still running 10 s after SIGTERM (then killed)' });
    expect(sigtermCheck('gone', LIMITS)).toMatchObject({ pass: false, detail: 'the sandbox had ended before SIGTERM' });
  });
});
