/**
 * When a soak fails: the rules, as pure functions of what was measured, so
 * that each can be shown to fail (test/unit/bench/soak-rules.test.ts).
 * docs/soak.md states the same rules; keep the two in step.
 */
import type { ProcessSample, SoakWindow } from './soak-window.js';

export interface SoakLimits {
  /** Memory keeps growing when the second half's RSS slope is above this (MB per minute)... */
  slopeMbPerMin: number;
  /** ...and its last window is above its first by more than this (MB). */
  growthMb: number;
  /** Descriptors came back when, after the settle, at most this many more are open than at the baseline. */
  fdMargin: number;
  /** The sandbox must exit within this long of SIGTERM (ms). */
  sigtermMs: number;
}

export interface Check {
  name: string;
  pass: boolean;
  /** False when too little was measured to judge (a short run): shown, never a failure. */
  judged: boolean;
  detail: string;
}

/** The least-squares slope of `ys` over `xs`. */
export function slope(xs: number[], ys: number[]): number {
  const n = xs.length;
  const mx = xs.reduce((a, b) => a + b, 0) / n;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  let num = 0;
  let den = 0;
  for (let i = 0; i < n; i++) {
    num += ((xs[i] as number) - mx) * ((ys[i] as number) - my);
    den += ((xs[i] as number) - mx) ** 2;
  }
  return den === 0 ? 0 : num / den;
}

const mb = (n: number) => `${n.toFixed(1)} MB`;

/** Windows whose readings make one floor: a garbage collection's cycle under load can outlast one window. */
export const FLOOR_SPAN = 3;

/**
 * Memory: take the second half of the load's windows (the later half when
 * their number is odd). A window's floor is the lowest RSS reading in it and
 * the FLOOR_SPAN - 1 windows before it (45 s at the default 15 s windows):
 * the level the garbage collector got back to, where a median, or one
 * window's lowest, follows its sawtooth (tens of MB on this sandbox). The
 * floors judged are those whose windows all lie in the second half: at least
 * 3 of them (10 load windows), else the check is not judged. It fails when
 * the least-squares slope of those floors against time is above
 * `slopeMbPerMin` AND the last floor is above the first by more than
 * `growthMb`. Either alone is noise: a slope over a few flat windows, or one
 * step.
 */
export function memoryCheck(load: SoakWindow[], limits: SoakLimits): Check {
  const name = 'memory stops growing';
  const start = Math.floor(load.length / 2) + FLOOR_SPAN - 1;
  if (load.length - start < 3) return { name, pass: true, judged: false, detail: `${load.length} load windows; at least 9 are needed to judge` };
  const floorAt = (i: number) => Math.min(...load.slice(i + 1 - FLOOR_SPAN, i + 1).map((v) => v.rssMinMb));
  const half = load.slice(start).map((w, i) => ({ atSec: w.atSec, mb: floorAt(start + i) }));
  const first = half[0] as (typeof half)[number];
  const last = half.at(-1) as (typeof half)[number];
  const perMin = slope(
    half.map((f) => f.atSec / 60),
    half.map((f) => f.mb),
  );
  const growth = last.mb - first.mb;
  const pass = !(perMin > limits.slopeMbPerMin && growth > limits.growthMb);
  const detail =
    `second half (${half.length} floors, at ${first.atSec}-${last.atSec} s): RSS floor ${mb(first.mb)} -> ${mb(last.mb)}, ` +
    `slope ${perMin.toFixed(2)} MB/min (limit ${limits.slopeMbPerMin}), growth ${mb(growth)} (limit ${limits.growthMb} MB)`;
  return { name, pass, judged: true, detail };
}

/**
 * Disk (the file backend, whose windows count the files in its data folder):
 * over the second half of the load's windows (at least 2), the files at the
 * last window are at most the first's plus the larger of 20 and 10 %. The
 * workspaces of new keys must be bounded on disk, and the default bound is
 * reached within a full run's first half.
 */
export function diskCheck(load: SoakWindow[]): Check | undefined {
  const half = load.slice(Math.floor(load.length / 2));
  const first = half[0];
  const last = half.at(-1);
  if (first?.files === undefined || last?.files === undefined) return undefined;
  const name = 'the data folder stops growing';
  if (half.length < 2) return { name, pass: true, judged: false, detail: `${load.length} load windows; at least 4 are needed to judge` };
  const margin = Math.max(20, Math.ceil(first.files / 10));
  const detail = `second half: ${first.files} files at ${first.atSec} s, ${last.files} at ${last.atSec} s (margin ${margin})`;
  return { name, pass: last.files <= first.files + margin, judged: true, detail };
}

/** Descriptors: after the load stops and the settle, at most `fdMargin` more are open than at the baseline (after the warm-up and the same settle). */
export function descriptorCheck(baseline: ProcessSample, after: ProcessSample, limits: SoakLimits): Check {
  const pass = after.fds <= baseline.fds + limits.fdMargin;
  const detail = `${after.fds} open after the settle, ${baseline.fds} at the baseline (margin ${limits.fdMargin})`;
  return { name: 'descriptors come back', pass, judged: true, detail };
}

/** Nothing acknowledged (a 201, a reset, a load, a checkpoint) is missing or changed. */
export function ledgerCheck(lost: string[], acknowledged: number): Check {
  const detail = lost.length === 0 ? `${acknowledged} acknowledged writes checked` : `${lost.length} problem(s); first: ${lost.slice(0, 5).join('; ')}`;
  return { name: 'nothing acknowledged is lost', pass: lost.length === 0, judged: true, detail };
}

/** Every request got an answer it may get (an injected fault's 5xx only where faults are injected; the error model for bad input). */
export function answersCheck(unexpected: number, first: string[]): Check {
  const detail = unexpected === 0 ? 'every answer as expected' : `${unexpected} unexpected; first: ${first.slice(0, 3).join('; ')}`;
  return { name: 'every answer expected', pass: unexpected === 0, judged: true, detail };
}

/** SIGTERM: the sandbox exits within `sigtermMs` (`exit`: ms it took, `killed` when it had not, `gone` when it had ended before). */
export function sigtermCheck(exit: number | 'killed' | 'gone', limits: SoakLimits): Check {
  const detail =
    exit === 'killed' ? `still running ${limits.sigtermMs / 1000} s after SIGTERM (then killed)`
    : exit === 'gone' ? 'the sandbox had ended before SIGTERM'
    : `exited ${exit.toFixed(0)} ms after SIGTERM`;
  return { name: 'exits on SIGTERM', pass: typeof exit === 'number', judged: true, detail };
}
