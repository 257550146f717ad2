/**
 * The bench's chart: requests per second of each server, one panel per
 * scenario, as an SVG. Drawn by Vega-Lite, compiled to Vega and rendered
 * headless (`renderer: 'none'`, `toSVG()`): no browser, DOM or canvas.
 *
 * Each panel has a scale of its own: the in-process rows are hundreds of
 * times the MSW rows, so on one shared scale most bars would be a few
 * pixels wide. Since bars cannot be compared across panels, each bar
 * carries its figure and its ratio to the panel's baseline.
 */
import { parse, View } from 'vega';
import { compile, type TopLevelSpec } from 'vega-lite';
import type { Row } from './report.js';

/** The servers the sandbox is measured against (Prism, the minimal Express app, bare node:http, the peers, MSW's own handler), drawn grey. */
const BASELINE = /^(prism|express|node:http|json-server|Mockoon|WireMock|MSW's http\.get)/;

/**
 * The room for the servers' names, the same in every panel so that the panels and their titles line
 * up. Headless, Vega estimates a text's width (no canvas to measure it) at about half again its
 * real one, so names are cut only at twice this room.
 */
const NAMES = 320;
/** The width of a panel's bars, and where its columns of figures and ratios end and start, in pixels. */
const WIDTH = 360;
const FIGURES = WIDTH + 64;
const RATIOS = FIGURES + 10;

/**
 * The row a panel's ratios are taken to: Prism when it ran in the scenario
 * (as the table's `x Prism` column), else the first other baseline
 * (node:http, MSW's handler), else the panel's first row (the request log
 * off, the first in-process call, the first cross-instance setup).
 */
export function baselineOf(rows: readonly Row[]): Row | undefined {
  return rows.find((r) => r.server === 'prism') ?? rows.find((r) => BASELINE.test(r.server)) ?? rows[0];
}

/** What a scenario's figures count: pairs of calls in the cross-instance scenario, requests elsewhere. */
const unitOf = (scenario: string) => (scenario.includes('pairs/s') ? 'pairs per second' : 'requests per second');

/** A row's ratio as printed: the baseline says it is one; a ratio to a baseline of 0 req/s prints nothing. */
const ratioText = (isBaseline: boolean, ratio: number) => {
  if (isBaseline) return 'baseline';
  return Number.isFinite(ratio) ? `${ratio.toFixed(2)}×` : '';
};

/** A view of a vertical concatenation, as TopLevelSpec allows it. */
type Panel = Extract<TopLevelSpec, { vconcat: unknown }>['vconcat'][number];

/** One panel: a bar per server on a scale of its own, its figure and its ratio to the baseline beside it. */
function panel(scenario: string, rows: readonly Row[]): Panel {
  const baseline = baselineOf(rows);
  const base = baseline?.result.rps ?? Number.NaN;
  const values = rows.map((r) => ({
    server: r.server,
    rps: Math.round(r.result.rps),
    kind: BASELINE.test(r.server) ? 'baselines' : 'the sandbox',
    ratio: ratioText(r === baseline, r.result.rps / base),
  }));
  const y = { field: 'server', type: 'nominal', title: null, sort: null } as const;
  const column = (x: number, align: 'left' | 'right', field: string, format?: string) =>
    ({
      mark: { type: 'text', align, baseline: 'middle', fontSize: 11 },
      encoding: { y, x: { value: x }, text: { field, type: format ? 'quantitative' : 'nominal', format } },
    }) as const;
  return {
    title: {
      text: scenario,
      subtitle: `${unitOf(scenario)}, higher is better; ratios to ${baseline?.server ?? 'none'}`,
      anchor: 'start',
      frame: 'group',
      dx: -NAMES,
      fontSize: 12,
      subtitleColor: '#555555',
    },
    data: { values },
    width: WIDTH,
    layer: [
      {
        mark: 'bar',
        encoding: {
          y: { ...y, axis: { labelLimit: 2 * NAMES, minExtent: NAMES, maxExtent: NAMES } },
          x: { field: 'rps', type: 'quantitative', title: null, axis: { format: ',~f', tickCount: 5 } },
          color: { field: 'kind', type: 'nominal', title: null, scale: { domain: ['the sandbox', 'baselines'], range: ['#1f77b4', '#aaaaaa'] } },
          tooltip: [{ field: 'server' }, { field: 'rps', title: 'req/s' }],
        },
      },
      column(FIGURES, 'right', 'rps', ','),
      column(RATIOS, 'left', 'ratio'),
    ],
  };
}

/** The Vega-Lite specification of the chart of these rows. */
export function chartSpec(rows: readonly Row[], title: string): TopLevelSpec {
  const measured = rows.filter((r) => Number.isFinite(r.result.rps));
  const scenarios = [...new Set(measured.map((r) => r.scenario))];
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title: {
      text: title,
      subtitle: 'Each panel has its own scale: compare bars within a panel, not across panels.',
      anchor: 'start',
    },
    vconcat: scenarios.map((s) =>
      panel(
        s,
        measured.filter((r) => r.scenario === s),
      ),
    ),
    spacing: 28,
    resolve: { scale: { x: 'independent', y: 'independent', color: 'shared' } },
    config: { font: 'sans-serif', background: 'white', legend: { orient: 'top' } },
  };
}

/** The chart of these rows as SVG text. */
export async function renderChart(rows: readonly Row[], title: string): Promise<string> {
  const view = new View(parse(compile(chartSpec(rows, title)).spec), { renderer: 'none' });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}
