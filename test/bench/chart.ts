/**
 * The bench's chart: requests per second of each server, one panel per
 * scenario, as an SVG. Drawn by Vega-Lite, compiled to Vega and rendered
 * headless (`renderer: 'none'`, `toSVG()`): no browser, DOM or canvas.
 */
import { parse, View } from 'vega';
import { compile, type TopLevelSpec } from 'vega-lite';
import type { Row } from './report.js';

/** The servers the sandbox is measured against (Prism, the minimal Express app, bare node:http, the peers), drawn grey. */
const BASELINE = /^(prism|express|node:http|json-server|Mockoon|WireMock)/;

/** The Vega-Lite specification of the chart of these rows. */
export function chartSpec(rows: readonly Row[], title: string): TopLevelSpec {
  const values = rows
    .filter((r) => Number.isFinite(r.result.rps))
    .map((r) => ({
      scenario: r.scenario,
      server: r.server,
      rps: Math.round(r.result.rps),
      kind: BASELINE.test(r.server) ? 'baselines' : 'the sandbox',
    }));
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title,
    data: { values },
    facet: {
      row: {
        field: 'scenario',
        type: 'nominal',
        title: null,
        sort: null,
        header: { labelOrient: 'top', labelAngle: 0, labelAnchor: 'start', labelFontWeight: 'bold', labelFontSize: 12 },
      },
    },
    spec: {
      width: 420,
      mark: 'bar',
      encoding: {
        y: { field: 'server', type: 'nominal', title: null, sort: null, axis: { labelLimit: 320 } },
        x: {
          field: 'rps',
          type: 'quantitative',
          title: 'requests per second (pairs per second in the cross-instance scenario)',
          axis: { titleAnchor: 'start' },
        },
        color: { field: 'kind', type: 'nominal', title: null, scale: { domain: ['the sandbox', 'baselines'], range: ['#1f77b4', '#aaaaaa'] } },
        tooltip: [{ field: 'server' }, { field: 'rps', title: 'req/s' }],
      },
    },
    resolve: { scale: { y: 'independent' } },
    config: { font: 'sans-serif', background: 'white' },
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
