/**
 * `verify --report FORMAT=PATH`: which files to write, checked before
 * anything runs, and written once the run is over (report-path.ts says
 * which paths verify writes, and how).
 */
import { resolve } from 'node:path';
import type { ReportCase } from './report-case.js';
import { toCtrf } from './report-ctrf.js';
import { toJUnit } from './report-junit.js';
import { reportPathProblem, writeReportFile } from './report-path.js';
import type { ReportRun } from './report-run.js';

/** The formats `--report` knows, with what each file holds. */
export const REPORT_FORMATS = {
  junit: (cases: ReportCase[], run: ReportRun) => toJUnit(cases, run),
  ctrf: (cases: ReportCase[], run: ReportRun) => `${JSON.stringify(toCtrf(cases, run), null, 2)}\n`,
} as const;

export type ReportFormat = keyof typeof REPORT_FORMATS;

export interface ReportTarget {
  format: ReportFormat;
  /** Absolute. */
  path: string;
  /** `--force`: a file there that verify did not write may be overwritten (never a symbolic link). */
  force: boolean;
}

/**
 * The `--report` values as targets; throws an Error whose message names the
 * bad value (a usage error) for an unknown format, a missing path, a path
 * given twice or one that cannot be written (see report-path.ts).
 */
export function parseReportTargets(values: readonly string[] | undefined, cwd = process.cwd(), force = false): ReportTarget[] {
  const targets: ReportTarget[] = [];
  for (const value of values ?? []) {
    const match = /^([^=]*)=(.*)$/.exec(value);
    const known = Object.keys(REPORT_FORMATS).join(', ');
    if (!match) throw new Error(`--report takes FORMAT=PATH (FORMAT one of ${known}), got '${value}'`);
    const [, format = '', file = ''] = match;
    if (!Object.hasOwn(REPORT_FORMATS, format)) throw new Error(`--report: unknown format '${format}' (known: ${known})`);
    if (!file) throw new Error(`--report ${format}= needs a file path`);
    const path = resolve(cwd, file);
    if (targets.some((t) => t.path === path)) throw new Error(`--report: ${file} is given twice`);
    const problem = reportPathProblem(path, force);
    if (problem) throw new Error(`--report ${format}=${file}: cannot write there: ${problem}`);
    targets.push({ format: format as ReportFormat, path, force });
  }
  return targets;
}

/** Writes every report; returns a line per file that could not be written (the run then fails). */
export function writeReports(targets: readonly ReportTarget[], cases: ReportCase[], run: ReportRun): { written: string[]; problems: string[] } {
  const written: string[] = [];
  const problems: string[] = [];
  for (const target of targets) {
    try {
      writeReportFile(target.path, REPORT_FORMATS[target.format](cases, run), target.force);
      written.push(`${target.format} ${target.path}`);
    } catch (error) {
      problems.push(`${target.format} ${target.path}: ${(error as Error).message}`);
    }
  }
  return { written, problems };
}
