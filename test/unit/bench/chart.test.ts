/**
 * The bench's chart (test/bench/chart.ts) as a person reads it: each panel
 * on a scale of its own, so that a scenario of 800 req/s beside one of
 * 400,000 still shows its bars; each bar's figure and its ratio to the
 * panel's baseline printed beside it; and which side is better.
 */
import { compile } from 'vega-lite';
import { beforeAll, describe, expect, it } from 'vitest';
import { baselineOf, chartSpec, renderChart } from '../../bench/chart.js';
import { rowsOf, type Row } from '../../bench/report.js';
import type { LoadResult } from '../../bench/load.js';

const result = (rps: number): LoadResult => ({ rps, p50: 1, p99: 4, requests: rps * 5, non2xx: 0, errors: 0, cpuUs: 10 });
const panel = (scenario: string, figures: Record<string, number>, prism?: string) =>
  rowsOf(scenario, new Map(Object.entries(figures).map(([server, rps]) => [server, result(rps)])), prism);
/** Figures as far apart as the bench's: the in-process rows are hundreds of times the MSW rows. */
const rows: Row[] = [
  ...panel('GET /v1/pets, c10', { sandbox: 13738, prism: 5701, express: 14158 }, 'prism'),
  ...panel('in process, memory store', { 'sandbox.fetch: GET /v1/pets': 134962, 'sandbox.handle: GET /v1/pets': 439840 }),
  ...panel('MSW setupServer, GET /v1/pets', { 'sandbox handlers': 810, "MSW's http.get returning a fixed array": 850 }),
  ...panel('POST then GET by id, 10 clients (pairs/s)', { 'PostgreSQL, create and read on A': 887, 'file backend': 2990 }),
];
const scenarios = [...new Set(rows.map((r) => r.scenario))];

/** Every text a Vega spec draws from a field or a literal, at any depth. */
const collect = (node: unknown, found: (o: Record<string, unknown>) => boolean): Record<string, unknown>[] => {
  if (Array.isArray(node)) return node.flatMap((n) => collect(n, found));
  if (node === null || typeof node !== 'object') return [];
  const o = node as Record<string, unknown>;
  return [...(found(o) ? [o] : []), ...Object.values(o).flatMap((v) => collect(v, found))];
};

/** The texts an SVG shows, in order, as Vega writes them (entities decoded). */
const textsOf = (svg: string) => [...svg.matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((m) => (m[1] ?? '').replaceAll('&amp;', '&').replaceAll('&#39;', "'"));

describe('the bench chart', () => {
  let svg: string;
  let texts: string[];
  beforeAll(async () => {
    svg = await renderChart(rows, 'a bench');
    texts = textsOf(svg);
  });

  it('gives each panel an x scale of its own', () => {
    const spec = chartSpec(rows, 'a bench') as { resolve?: { scale?: { x?: string } } };
    expect(spec.resolve?.scale?.x).toBe('independent');
    // Compiled to Vega, a shared scale is one scale; independent ones are one per panel.
    const scales = collect(compile(chartSpec(rows, 'a bench')).spec, (o) => typeof o.name === 'string' && 'domain' in o && 'range' in o);
    const x = scales.filter((s) => /(^|_)x$/.test(String(s.name)));
    expect(x).toHaveLength(scenarios.length);
    // So the smallest panel's bars span its width: the longest bar of every panel is as long as any other's.
    const widths = [...svg.matchAll(/aria-roledescription="bar" d="M0,[\d.]+h([\d.]+)v/g)].map((m) => Number(m[1]));
    expect(widths).toHaveLength(rows.length);
    const longest = Math.max(...widths);
    for (const s of scenarios) {
      const own = rows.flatMap((r, i) => (r.scenario === s ? [widths[i] ?? 0] : []));
      expect(Math.max(...own)).toBeGreaterThan(longest * 0.5);
    }
  });

  it('prints each bar figure and its ratio to the panel baseline', () => {
    const marks = collect(chartSpec(rows, 'a bench'), (o) => (o.mark as { type?: string } | undefined)?.type === 'text');
    expect(marks.length).toBeGreaterThan(0);
    for (const figure of ['13,738', '5,701', '439,840', '810', '850', '2,990']) expect(texts).toContain(figure);
    // 13738 / 5701, 439840 / 134962, 810 / 850, 2990 / 887; the baseline itself says it is one.
    for (const ratio of ['2.41×', '2.48×', '3.26×', '0.95×', '3.37×']) expect(texts).toContain(ratio);
    expect(texts.filter((t) => t === 'baseline')).toHaveLength(scenarios.length);
  });

  it('says in each panel what is counted, which side is better and what the ratios are to', () => {
    for (const s of scenarios) expect(texts).toContain(s);
    expect(texts.filter((t) => t.startsWith('requests per second, higher is better; ratios to '))).toHaveLength(scenarios.length - 1);
    expect(texts).toContain('pairs per second, higher is better; ratios to PostgreSQL, create and read on A');
    expect(texts).toContain("requests per second, higher is better; ratios to MSW's http.get returning a fixed array");
  });

  it('takes ratios to Prism where it ran, else to the first other baseline, else to the first row', () => {
    const of = (s: string) => baselineOf(rows.filter((r) => r.scenario === s))?.server;
    expect(of('GET /v1/pets, c10')).toBe('prism');
    expect(of('MSW setupServer, GET /v1/pets')).toBe("MSW's http.get returning a fixed array");
    expect(of('in process, memory store')).toBe('sandbox.fetch: GET /v1/pets');
    expect(baselineOf([])).toBeUndefined();
  });

  it('draws no bar and prints no figure for a row that did not run', async () => {
    const failed = await renderChart([...rows, { scenario: 'GET /v1/pets, c10', server: 'down', result: result(Number.NaN) }], 'a bench');
    expect(failed.includes('server: down;')).toBe(false);
    expect(textsOf(failed).filter((t) => t.includes('NaN'))).toEqual([]);
  });
});
