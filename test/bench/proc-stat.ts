/** What a process has used so far, read from Linux's /proc: CPU time and peak memory. */
import { readFileSync } from 'node:fs';

/** Clock ticks per second of /proc/<pid>/stat times (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

/** The fields of /proc/<pid>/stat after the command name (which may hold spaces): [0] state, [1] ppid, [11] utime, [12] stime, [13] cutime, [14] cstime. */
export function statFields(pid: number | string): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

/** Clock ticks of /proc/<pid>/stat fields as ms. */
export const ticksMs = (ticks: number): number => (ticks * 1000) / TICKS_PER_SECOND;

/** CPU time (user and system, all its threads) the process has used so far, ms. */
export function cpuTime(pid: number): number | undefined {
  const fields = statFields(pid);
  return fields ? ticksMs(Number(fields[11]) + Number(fields[12])) : undefined;
}

/** Its peak resident set size (VmHWM), MB. */
export function peakRss(pid: number): number | undefined {
  try {
    const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : undefined;
  } catch {
    return undefined;
  }
}
