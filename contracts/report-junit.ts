/**
 * The JUnit XML of a `verify` run, in the form CI systems read (the
 * Jenkins/Ant schema: `testsuites` > `testsuite` > `testcase`, with a
 * `failure`, `error` or `skipped` child and the exchange in `system-out`).
 */
import { stripVTControlCharacters } from 'node:util';
import { describeExchange, type ReportCase } from './report-case.js';
import type { ReportRun } from './report-run.js';
import { apiCoverageText, coverageText } from './verify-coverage.js';

/** Characters XML 1.0 cannot hold at all, not even escaped: control characters and unpaired surrogates. */
// eslint-disable-next-line no-control-regex
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

const clean = (value: string) => stripVTControlCharacters(value).replace(NOT_XML, '\uFFFD');
const text = (value: string) => clean(value).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
/** An attribute keeps its line breaks only as character references: a parser turns a raw one into a space. */
const attr = (value: string) => text(value).replace(/"/g, '&quot;').replace(/\n/g, '&#10;').replace(/\r/g, '&#13;').replace(/\t/g, '&#9;');
const seconds = (ms: number) => (Math.max(0, ms) / 1000).toFixed(3);

const count = (cases: ReportCase[], status: ReportCase['status']) => cases.filter((c) => c.status === status).length;

function testcase(c: ReportCase): string {
  const exchange = describeExchange(c);
  const children: string[] = [];
  const verdict = { failed: 'failure', error: 'error', skipped: 'skipped', passed: undefined }[c.status];
  if (verdict === 'skipped') children.push(`      <skipped message="${attr(c.message)}"/>`);
  else if (verdict) {
    const body = [c.message, exchange].filter(Boolean).join('\n\n');
    children.push(
      `      <${verdict} message="${attr(c.message)}" type="${c.tool === 'Pact' ? 'PactMismatch' : `${c.tool}Failure`}">${text(body)}</${verdict}>`,
    );
  }
  if (exchange) children.push(`      <system-out>${text(exchange)}</system-out>`);
  const open = `    <testcase name="${attr(c.name)}" classname="${attr(`${c.tool}.${c.group}`)}" time="${seconds(c.durationMs)}"`;
  return children.length ? `${open}>\n${children.join('\n')}\n    </testcase>` : `${open}/>`;
}

function testsuite(name: string, cases: ReportCase[], run: ReportRun): string {
  const time = cases.reduce((sum, c) => sum + c.durationMs, 0);
  const head =
    `  <testsuite name="${attr(name)}" tests="${cases.length}" failures="${count(cases, 'failed')}" errors="${count(cases, 'error')}" ` +
    `skipped="${count(cases, 'skipped')}" time="${seconds(time)}" timestamp="${new Date(run.start).toISOString().slice(0, 19)}">`;
  const coverage = run.coverage ? [`      <property name="coverage" value="${attr(coverageText(run.coverage))}"/>`] : [];
  // With --spec, a spec's suite also carries its API's share.
  const api = run.coverage?.apis?.find((a) => name === `Dredd: ${a.api}`);
  if (api) coverage.push(`      <property name="api-coverage" value="${attr(apiCoverageText(api))}"/>`);
  const properties = ['    <properties>', `      <property name="target" value="${attr(run.target)}"/>`, ...coverage, '    </properties>'].join('\n');
  return [head, properties, ...cases.map(testcase), '  </testsuite>'].join('\n');
}

/** One `testsuite` per tool and group (Dredd's spec, each Pact consumer), in the order the cases ran. */
export function toJUnit(cases: ReportCase[], run: ReportRun): string {
  const suites = new Map<string, ReportCase[]>();
  for (const c of cases) {
    const name = `${c.tool}: ${c.group}`;
    suites.set(name, [...(suites.get(name) ?? []), c]);
  }
  const head =
    `<testsuites name="${attr(run.name)}" tests="${cases.length}" failures="${count(cases, 'failed')}" errors="${count(cases, 'error')}" ` +
    `time="${seconds(run.stop - run.start)}">`;
  return ['<?xml version="1.0" encoding="UTF-8"?>', head, ...[...suites].map(([name, list]) => testsuite(name, list, run)), '</testsuites>', ''].join('\n');
}
