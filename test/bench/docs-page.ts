/**
 * The bench's results as documentation: a Markdown page (`latest.md`: when,
 * on what machine, with which settings, then the tables) and its chart
 * (`latest.svg`), written together into one folder, docs/performance/ on a
 * full run. docs/performance.md says how to read them.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { PACKAGE_ROOT } from '../../src/config/paths.js';
import { renderChart } from './chart.js';
import type { RecordedRun, Row } from './report.js';

/** The names of the files written, in the folder given. */
export const PAGE = 'latest.md';
export const CHART = 'latest.svg';

/** The chart's title: the day of the run, and whether it was a smoke run. */
export const chartTitle = (run: { date: string; smoke: boolean }) => `Pet Store sandbox bench, ${run.date.slice(0, 10)}${run.smoke ? ' (smoke run)' : ''}`;

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
  const svg = await renderChart(run.rows, chartTitle(run));
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

/** A table row's cells, without the outer pipes. */
const cellsOf = (line: string) =>
  line
    .split('|')
    .slice(1, -1)
    .map((c) => c.trim());

/**
 * The load table's rows read back from a page `benchPage` wrote: the
 * figures the chart is drawn from, when it is drawn again without a run.
 */
export function rowsOfPage(page: string): Row[] {
  const lines = page.split('\n');
  const head = lines.findIndex((l) => l.startsWith('| Scenario '));
  if (head < 0) return [];
  const names = cellsOf(lines[head] ?? '');
  const rows: Row[] = [];
  for (const line of lines.slice(head + 2)) {
    if (!line.startsWith('|')) break;
    const cell = new Map(cellsOf(line).map((c, i) => [names[i], c]));
    const number = (name: string) => (cell.get(name) ? Number(cell.get(name)) : Number.NaN);
    const [non2xx, errors] = (cell.get('non-2xx/errors') ?? '').split('/').map(Number);
    const result = { rps: number('req/s'), p50: number('p50 ms'), p99: number('p99 ms'), requests: Number.NaN };
    rows.push({ scenario: cell.get('Scenario') ?? '', server: cell.get('Server') ?? '', result: { ...result, non2xx: non2xx ?? 0, errors: errors ?? 0 } });
  }
  return rows;
}

/**
 * Draws the chart in `dir` again from the page beside it (`npm run bench --
 * --redraw`), after a change to chart.ts, without running the bench; returns its path.
 */
export async function redrawChart(dir: string): Promise<string> {
  const page = readFileSync(join(dir, PAGE), 'utf8');
  const date = /^\| date \| (\S+) \|$/m.exec(page)?.[1] ?? '';
  const svg = await renderChart(rowsOfPage(page), chartTitle({ date, smoke: page.includes('from a smoke run') }));
  const chart = join(dir, CHART);
  writeWhole(chart, `${svg}\n`);
  return chart;
}
