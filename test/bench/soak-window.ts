/**
 * The soak's windows: what the load did in each (requests, p99, unexpected
 * answers) and what the sandbox process held meanwhile, read from /proc
 * once a second (resident memory, open descriptors).
 */
import { readdirSync, readFileSync } from 'node:fs';

/** A reading of the sandbox process. */
export interface ProcessSample {
  rssMb: number;
  fds: number;
}

/** Resident memory (VmRSS) and the open descriptors (/proc/<pid>/fd) of `pid`; undefined once it is gone. */
export function sampleProcess(pid: number): ProcessSample | undefined {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return { rssMb: Number(match?.[1] ?? Number.NaN) / 1024, fds: readdirSync(`/proc/${pid}/fd`).length };
  } catch {
    return undefined;
  }
}

export interface SoakWindow {
  phase: 'warm-up' | 'load';
  /** Seconds since the phase began, at the window's end. */
  atSec: number;
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  unexpected: number;
  newKeys: number;
  streams: number;
  /** Lowest, median and highest of the window's once-a-second readings (the lowest is the one judged: it follows a garbage collection). */
  rssMinMb: number;
  rssMb: number;
  rssMaxMb: number;
  /** Every reading, MB. */
  rssSamples: number[];
  fds: number;
  fdsMax: number;
  /** Files in the data folder at the window's end (file backend), for the record. */
  files?: number;
}

const percentile = (sorted: number[], p: number) =>
  sorted.length === 0 ? Number.NaN : (sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? Number.NaN);

/** Counts of the window under way; taken (and restarted) at its end. */
export class WindowRecorder {
  private latencies: number[] = [];
  private requests = 0;
  newKeys = 0;
  streams = 0;

  /** A request answered in `ms` (or not answered: no latency). */
  answered(ms?: number): void {
    this.requests += 1;
    if (ms !== undefined) this.latencies.push(ms);
  }

  /** The window's figures, with the process's readings in it; counts start again from zero. */
  take(phase: SoakWindow['phase'], atSec: number, seconds: number, unexpected: number, samples: ProcessSample[]): SoakWindow {
    const sorted = this.latencies.sort((a, b) => a - b);
    const rssSamples = samples.map((s) => Math.round(s.rssMb * 10) / 10);
    const rss = [...rssSamples].sort((a, b) => a - b);
    const fds = samples.map((s) => s.fds);
    const window: SoakWindow = {
      phase,
      atSec,
      requests: this.requests,
      rps: this.requests / seconds,
      p50: percentile(sorted, 0.5),
      p99: percentile(sorted, 0.99),
      unexpected,
      newKeys: this.newKeys,
      streams: this.streams,
      rssMinMb: rss[0] ?? Number.NaN,
      rssMb: percentile(rss, 0.5),
      rssMaxMb: rss.at(-1) ?? Number.NaN,
      rssSamples,
      fds: fds.at(-1) ?? Number.NaN,
      fdsMax: Math.max(...fds),
    };
    this.latencies = [];
    this.requests = this.newKeys = this.streams = 0;
    return window;
  }
}
