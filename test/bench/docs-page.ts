/**
 * The bench's results as documentation: a Markdown page (`latest.md`: when,
 * on what machine, with which settings, then the tables) and its chart
 * (`latest.svg`), written together into one folder, docs/performance/ on a
 * full run. docs/performance.md says how to read them.
 */
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { PACKAGE_ROOT } from '../../src/config/paths.js';
import { renderChart } from './chart.js';
import type { RecordedRun } from './report.js';

/** The names of the files written, in the folder given. */
export const PAGE = 'latest.md';
export const CHART = 'latest.svg';

const round = (values: number[]) => values.map((v) => v.toFixed(2)).join(', ');

/** The page's lines on the machine and the settings of the run. */
function about(run: RecordedRun): string[] {
  const m = run.machine;
  const options = run.options;
  const scenarios = Array.isArray(options.scenarios) ? options.scenarios.join(', ') : 'all';
  return [
    `| | |`,
    `|:--|:--|`,
    `| date | ${run.date} |`,
    `| machine | ${m.cpus} cores (${m.cpu ?? 'unknown CPU'}), ${Math.round(m.totalMemMb / 1024)} GB, ${m.platform} |`,
    `| Node.js | ${m.node} |`,
    `| Prism | ${m.prism} |`,
    `| load average (1, 5, 15 min) | ${round(m.loadavgBefore)} before the run, ${round(m.loadavgAfter)} after |`,
    `| run | ${String(options.rounds)} round(s) of ${String(options.durationSec)} s per server and scenario; scenarios: ${scenarios}; ${String(options.big)} pets for the large store; PostgreSQL rows: ${options.postgres ? 'yes' : 'no'} |`,
  ];
}

/** The Markdown page of one recorded run; `guide` is the link to docs/performance.md from where the page is. */
export function benchPage(run: RecordedRun, guide = '../performance.md'): string {
  const kind = run.smoke ? 'a smoke run (`--smoke`): too short for the numbers to mean much, and the targets are not judged' : 'a full run';
  return [
    '# Bench results: the latest run',
    '',
    `Written by \`npm run bench\` from ${kind}.`,
    'Do not edit it by hand: run the bench again.',
    `[Performance](${guide}) says how to read it.`,
    '',
    ...about(run),
    '',
    `![Requests per second of each server, per scenario](${CHART})`,
    '',
    run.markdown.trimEnd(),
    '',
  ].join('\n');
}

/** Writes a file whole: a reader sees the old text or the new, never half of it. */
function writeWhole(path: string, text: string): void {
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, text);
  renameSync(temp, path);
}

/** Writes the page and its chart into `dir` (made if missing); returns their paths. */
export async function writeBenchDocs(dir: string, run: RecordedRun): Promise<string[]> {
  const svg = await renderChart(run.rows, `Pet Store sandbox bench, ${run.date.slice(0, 10)}${run.smoke ? ' (smoke run)' : ''}`);
  mkdirSync(dir, { recursive: true });
  const page = join(dir, PAGE);
  const chart = join(dir, CHART);
  writeWhole(chart, `${svg}\n`);
  const guide = relative(dir, join(PACKAGE_ROOT, 'docs', 'performance.md'))
    .split(sep)
    .join('/');
  writeWhole(page, benchPage(run, guide));
  return [page, chart];
}
