/**
 * The bench's page and chart (test/bench/docs-page.ts, chart.ts), written
 * from a recorded run: a Markdown page that shows the run's tables and
 * links its chart, and a chart that is well-formed SVG naming every scenario.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import MarkdownIt from 'markdown-it';
import { beforeAll, describe, expect, it } from 'vitest';
import { benchPage, CHART, PAGE, redrawChart, rowsOfPage, writeBenchDocs } from '../../bench/docs-page.js';
import { render, rowsOf, type RecordedRun } from '../../bench/report.js';
import type { LoadResult } from '../../bench/load.js';
import { tempDir } from '../../support/harness.js';
import { PACKAGE_ROOT } from '../../../src/config/paths.js';

const result = (rps: number, cpuUs: number): LoadResult => ({ rps, p50: 1, p99: 4, requests: rps * 5, non2xx: 0, errors: 0, cpuUs });
const get = new Map([
  ['sandbox', result(42006, 23)],
  ['prism', result(5163, 193)],
  ['express', result(9003, 117)],
]);
const post = new Map([
  ['sandbox, 100 stored', result(24062, 44)],
  ['prism', result(3881, 262)],
]);
const rows = [...rowsOf('GET /v1/pets, c10', get, 'prism', 'express'), ...rowsOf('POST /v1/pets, c100', post, 'prism')];
const measures = [{ name: 'ready, seeded store (50 pets), median of 7', value: 219, unit: 'ms' }];
const targets = [{ name: 'stateful GET /v1/pets vs Prism', actual: '8.14x', required: '>= 4x', pass: true }];

/** A run as run.ts records it, with a made-up machine. */
const run: RecordedRun = {
  date: '2026-11-23T21:00:00.000Z',
  smoke: false,
  options: { durationSec: 5, rounds: 3, starts: 7, big: 100000, postgres: false, scenarios: ['get', 'post'] },
  rows,
  measures,
  targets,
  markdown: render(rows, measures, targets),
  machine: {
    cpus: 2,
    cpu: 'AMD EPYC',
    totalMemMb: 24000,
    node: 'v24.21.0',
    prism: '5.16.0',
    platform: 'linux',
    loadavgBefore: [1.3, 1, 0.9],
    loadavgAfter: [2, 1.5, 1],
  },
};

describe('the bench page and chart', () => {
  let dir: string;
  let page: string;
  let svg: string;
  beforeAll(async () => {
    dir = tempDir('petstore-bench-docs-');
    expect(await writeBenchDocs(dir, run)).toEqual([join(dir, PAGE), join(dir, CHART)]);
    page = readFileSync(join(dir, PAGE), 'utf8');
    svg = readFileSync(join(dir, CHART), 'utf8');
  });

  it('writes the page benchPage renders, its link to docs/performance.md made from where the page is', () => {
    const guide = /\[Performance\]\(([^)]+)\)/.exec(page)?.[1] ?? '';
    expect(resolve(dir, guide)).toBe(join(PACKAGE_ROOT, 'docs', 'performance.md'));
    expect(page).toBe(benchPage(run, guide));
  });

  it('says when, on what and how the run was made', () => {
    for (const fact of [
      '2026-11-23T21:00:00.000Z',
      '2 cores (AMD EPYC)',
      'v24.21.0',
      '1.30, 1.00, 0.90 before the run',
      '3 round(s) of 5 s',
      'scenarios: get, post',
    ])
      expect(page).toContain(fact);
  });

  it('is Markdown whose tables hold every row, measure and target, and whose image is the chart', () => {
    const tokens = new MarkdownIt().parse(page, {});
    expect(tokens.filter((t) => t.type === 'table_open')).toHaveLength(4);
    const cells = tokens.filter((t) => t.type === 'inline').map((t) => t.content);
    for (const name of [...rows.map((r) => r.server), ...measures.map((m) => m.name), ...targets.map((t) => t.name)]) expect(cells).toContain(name);
    const images = tokens.flatMap((t) => t.children ?? []).filter((t) => t.type === 'image');
    expect(images.map((t) => t.attrGet('src'))).toEqual([CHART]);
  });

  it('draws a well-formed SVG chart with a panel per scenario and a bar per server', () => {
    expect(XMLValidator.validate(svg)).toBe(true);
    const root = new XMLParser({ ignoreAttributes: false }).parse(svg) as { svg?: Record<string, string> };
    expect(root.svg?.['@_xmlns']).toBe('http://www.w3.org/2000/svg');
    for (const scenario of ['GET /v1/pets, c10', 'POST /v1/pets, c100']) expect(svg).toContain(`>${scenario}<`);
    // Vega draws each bar as a path described as a bar, labelled with its server.
    const bars = [...svg.matchAll(/<path aria-label="[^"]*server: ([^;"]+);[^"]*" role="graphics-symbol" aria-roledescription="bar"/g)].map((m) => m[1]);
    expect(bars.sort()).toEqual(rows.map((r) => r.server).sort());
  });

  it('reads the load table back from the page, and draws the same chart from it', async () => {
    expect(rowsOfPage(page).map((r) => [r.scenario, r.server, r.result.rps, r.result.p99])).toEqual(
      rows.map((r) => [r.scenario, r.server, r.result.rps, r.result.p99]),
    );
    expect(rowsOfPage('# no table')).toEqual([]);
    writeFileSync(join(dir, CHART), 'stale');
    expect(await redrawChart(dir)).toBe(join(dir, CHART));
    expect(readFileSync(join(dir, CHART), 'utf8')).toBe(svg);
    // A smoke run's page redraws a smoke run's title.
    writeFileSync(join(dir, PAGE), benchPage({ ...run, smoke: true }));
    await redrawChart(dir);
    expect(readFileSync(join(dir, CHART), 'utf8')).toContain('>Pet Store sandbox bench, 2026-11-23 (smoke run)<');
  });

  it('says a smoke run is one', () => {
    expect(benchPage({ ...run, smoke: true })).toContain('a smoke run');
  });
});
