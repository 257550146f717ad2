/** The bench's printed table, its targets and the JSON it writes (docs-page.ts turns that into the docs' page). */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../../src/config/paths.js';
import { roundRatio, type LoadResult } from './load.js';

export interface Row {
  scenario: string;
  server: string;
  result: LoadResult;
  /** req/s of this row over Prism's and the minimal Express app's in the same scenario. */
  vsPrism?: number;
  vsExpress?: number;
}

export interface Measure {
  name: string;
  value: number;
  unit: string;
}

export interface Target {
  name: string;
  /** e.g. `0.93x` or `212 ms`. */
  actual: string;
  required: string;
  pass: boolean;
}

/** A target on a ratio `a / b >= min`. */
export function ratioTarget(name: string, a: number, b: number, min: number): Target {
  const ratio = a / b;
  return { name, actual: `${ratio.toFixed(2)}x`, required: `>= ${min}x`, pass: Number.isFinite(ratio) && ratio >= min };
}

/** The result of one row of `rows` (undefined when it did not run). */
export const resultOf = (rows: Row[], scenario: string, server: string): LoadResult | undefined =>
  rows.find((r) => r.scenario === scenario && r.server === server)?.result;

/** The req/s of one row of `rows` (NaN when it did not run). */
export const rpsOf = (rows: Row[], scenario: string, server: string): number => resultOf(rows, scenario, server)?.rps ?? Number.NaN;

/**
 * The median over rounds of `a`'s req/s over `b`'s in the same round, of
 * two rows of `rows`'s `scenario`: for a target whose required ratio is
 * closer than the machine's noise from one round to the next (a build
 * against the one before it), since rounds alternate contenders moments
 * apart.
 */
export const roundRatioOf = (rows: Row[], scenario: string, a: string, b: string): number =>
  roundRatio(resultOf(rows, scenario, a), resultOf(rows, scenario, b));

/** A target on a measured value `value < max`. */
export function maxTarget(name: string, value: number, max: number, unit: string): Target {
  return { name, actual: `${value.toFixed(0)} ${unit}`, required: `< ${max} ${unit}`, pass: Number.isFinite(value) && value < max };
}

/** A scenario's rows, with each server's req/s over Prism's and the Express app's when those ran in it. */
export function rowsOf(scenario: string, results: Map<string, LoadResult>, prism?: string, express?: string): Row[] {
  const p = prism ? results.get(prism)?.rps : undefined;
  const e = express ? results.get(express)?.rps : undefined;
  return [...results].map(([server, result]) => {
    const row: Row = { scenario, server, result };
    if (p && server !== prism) row.vsPrism = result.rps / p;
    if (e && server !== express) row.vsExpress = result.rps / e;
    return row;
  });
}

const fmt = (n: number | undefined, digits = 0) => (n === undefined || !Number.isFinite(n) ? '' : n.toFixed(digits));

/** A Markdown table: the first two columns left-aligned, the others right-aligned. */
export function table(head: string[], rows: string[][]): string {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => (i < 2 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join(' | ')} |`;
  return [line(head), `|${widths.map((w, i) => (i < 2 ? `:${'-'.repeat(w + 1)}` : `${'-'.repeat(w + 1)}:`)).join('|')}|`, ...rows.map(line)].join('\n');
}

/**
 * The load table, the start-up/memory table and the targets, as Markdown.
 * `judged: false` (a smoke run, too short to mean anything) shows the
 * targets without a verdict.
 */
export function render(rows: Row[], measures: Measure[], targets: Target[], judged = true): string {
  // PostgreSQL's CPU per request, apart from the sandbox's, in a column of its own when some server stored in it.
  const db = rows.some((r) => r.result.dbCpuUs !== undefined);
  const load = table(
    ['Scenario', 'Server', 'req/s', 'p50 ms', 'p99 ms', 'CPU µs/req', ...(db ? ['PostgreSQL CPU µs/req'] : []), 'x Prism', 'x Express', 'non-2xx/errors'],
    rows.map((r) => [
      r.scenario,
      r.server,
      fmt(r.result.rps),
      fmt(r.result.p50, 1),
      fmt(r.result.p99, 1),
      fmt(r.result.cpuUs),
      ...(db ? [fmt(r.result.dbCpuUs)] : []),
      r.vsPrism === undefined ? '' : `${r.vsPrism.toFixed(2)}`,
      r.vsExpress === undefined ? '' : `${r.vsExpress.toFixed(2)}`,
      `${r.result.non2xx}/${r.result.errors}`,
    ]),
  );
  const other = table(
    ['Measure', '', 'value'],
    measures.map((m) => [m.name, '', `${fmt(m.value, m.unit === 'ms' ? 0 : 1)} ${m.unit}`]),
  );
  const goals = table(
    ['Target', 'Result', 'actual', 'required'],
    targets.map((t) => [
      t.name,
      !judged ? 'not judged'
      : t.pass ? 'PASS'
      : 'FAIL',
      t.actual,
      t.required,
    ]),
  );
  return `${load}\n\n${other}\n\n${goals}\n`;
}

/** The version of an installed package, read from its package.json. */
export function versionOf(name: string): string {
  return (JSON.parse(readFileSync(join(PACKAGE_ROOT, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;
}

/**
 * What the numbers were measured on, as the report's first line: the Node
 * release (a bench is compared across runtimes), Prism's (the `x Prism`
 * column), the machine and how busy it was.
 */
export function measuredOn(loadavgBefore: number[]): string {
  const cores = `${cpus().length} cores (${cpus()[0]?.model.trim() ?? 'unknown CPU'})`;
  const memory = `${Math.round(totalmem() / 2 ** 30)} GB`;
  return `Node ${process.version} (${process.platform} ${process.arch}), Prism ${versionOf('@stoplight/prism-cli')}, ${cores}, ${memory}, load average ${loadavgBefore[0]?.toFixed(1)} before the run`;
}

/** The machine a run was made on, as its results record it. */
export interface Machine {
  cpus: number;
  cpu: string | undefined;
  totalMemMb: number;
  node: string;
  /** The Prism release the `x Prism` column was measured against. */
  prism: string;
  platform: string;
  /** `os.loadavg()` before the run started and after it ended. */
  loadavgBefore: number[];
  loadavgAfter: number[];
}

/** One run of the bench as it is recorded: what ran, on what, and the numbers. */
export interface RecordedRun {
  /** ISO 8601 time the run ended. */
  date: string;
  smoke: boolean;
  options: Record<string, unknown>;
  rows: Row[];
  measures: Measure[];
  targets: Target[];
  /** The three tables as `render` printed them. */
  markdown: string;
  machine: Machine;
  [more: string]: unknown;
}

/** The run (what `main` gathered) with the date and a description of this machine. */
export function recordRun<T extends object>(run: T, loadavgBefore: number[]): T & { date: string; machine: Machine } {
  const machine: Machine = {
    cpus: cpus().length,
    cpu: cpus()[0]?.model,
    totalMemMb: Math.round(totalmem() / 2 ** 20),
    node: process.version,
    prism: versionOf('@stoplight/prism-cli'),
    platform: process.platform,
    loadavgBefore,
    loadavgAfter: loadavg(),
  };
  return { date: new Date().toISOString(), ...run, machine };
}

/** Writes the recorded run (the bench's or the soak's) to `.bench/results-<date>.json`; returns its path. */
export function writeResults(run: { date: string }): string {
  const outDir = join(PACKAGE_ROOT, '.bench');
  mkdirSync(outDir, { recursive: true });
  const outFile = join(outDir, `results-${run.date.replace(/[:.]/g, '-')}.json`);
  writeFileSync(outFile, `${JSON.stringify(run, null, 2)}\n`);
  return outFile;
}
