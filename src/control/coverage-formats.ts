import type { Coverage } from './coverage.js';

/** The formats the coverage report is written in. */
export type CoverageFormat = 'json' | 'markdown' | 'junit';

const MEDIA: Record<string, CoverageFormat> = {
  'application/json': 'json',
  'text/markdown': 'markdown',
  'application/xml': 'junit',
  'text/xml': 'junit',
};

/** The format an `Accept` header prefers among those offered (its highest `q`, first on a tie); JSON when none. */
export function formatOfAccept(accept: string | undefined): CoverageFormat {
  let best: { format: CoverageFormat; q: number } | undefined;
  for (const range of (accept ?? '').split(',')) {
    const [type = '', ...params] = range.split(';').map((p) => p.trim().toLowerCase());
    const format = MEDIA[type];
    const q = Number(params.find((p) => p.startsWith('q='))?.slice(2) ?? 1);
    if (format && q > 0 && (!best || q > best.q)) best = { format, q };
  }
  return best?.format ?? 'json';
}

/** `1 request`, `2 requests`: a count with its noun. */
const plural = (count: number, one: string): string => `${count} ${count === 1 ? one : `${one}s`}`;

const answerName = (op: Coverage['operations'][number], status: number) => `${op.method} ${op.path} ${status}`;

/** The report as Markdown, for a CI job's step summary: the share, a row per documented answer, then what fell outside. */
export function coverageMarkdown(c: Coverage): string {
  const { answers, exercised, percent } = c.documented;
  const lines = [`## API coverage: ${exercised} of ${answers} documented answers exercised (${percent}%)`, ''];
  if (c.threshold) lines.push(`Threshold: at least ${c.threshold.failUnder}%: **${c.threshold.met ? 'met' : 'not met'}**.`, '');
  lines.push(`${c.scope === 'all' ? 'Every workspace' : `Workspace \`${c.workspace}\``}: ${plural(c.requests, 'request')} counted.`, '');
  lines.push('| Operation | Request | Status | Requests |', '|---|---|---:|---:|');
  for (const op of c.operations)
    for (const { status, count } of op.statuses)
      lines.push(`| \`${op.operationId}\`${op.deprecated ? ' (deprecated)' : ''} | ${op.method} ${op.path} | ${status} | ${count === 0 ? '**0**' : count} |`);
  const undocumented = c.operations.flatMap((op) => op.undocumented.map((s) => `\`${op.operationId}\` ${s.status}: ${s.count}`));
  lines.push('', '### Outside the interface', '');
  lines.push(`- Undocumented statuses: ${undocumented.length === 0 ? 'none' : undocumented.join(', ')}`);
  const unmatched = c.unmatched.statuses.map((s) => `${s.status}: ${s.count}`).join(', ');
  lines.push(`- Requests that matched no operation: ${c.unmatched.requests}${unmatched ? ` (${unmatched})` : ''}`);
  if (c.deprecated.length > 0) {
    lines.push('', '### Deprecated operations', '');
    for (const d of c.deprecated)
      lines.push(
        `- \`${d.operationId}\` (${d.method} ${d.path}): ${plural(d.calls, 'call')}; its removal is announced for ${d.sunsetDate} (\`Sunset: ${d.sunset}\`)`,
      );
  }
  return `${lines.join('\n')}\n`;
}

const xml = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');

/**
 * The report as JUnit XML: a test case per documented answer, passed when
 * some request got it. One never exercised is a failure, unless a threshold
 * was given: then it is skipped, and the one test case `threshold` fails
 * when the share exercised is under it (the threshold decides the run).
 */
export function coverageJunit(c: Coverage): string {
  const cases: string[] = [];
  let failures = 0;
  let skipped = 0;
  for (const op of c.operations)
    for (const { status, count } of op.statuses) {
      const head = `    <testcase classname="${xml(op.operationId)}" name="${xml(answerName(op, status))}" time="0">`;
      if (count > 0) cases.push(`${head}<system-out>${plural(count, 'request')}</system-out></testcase>`);
      else if (c.threshold) {
        skipped += 1;
        cases.push(`${head}<skipped message="never exercised"/></testcase>`);
      } else {
        failures += 1;
        cases.push(`${head}<failure type="not-exercised" message="never exercised">No request got ${xml(answerName(op, status))}.</failure></testcase>`);
      }
    }
  if (c.threshold) {
    const { failUnder, met } = c.threshold;
    const why = `${c.documented.exercised} of ${c.documented.answers} documented answers exercised (${c.documented.percent}%), threshold ${failUnder}%`;
    const head = `    <testcase classname="coverage" name="threshold" time="0">`;
    if (met) cases.push(`${head}<system-out>${xml(why)}</system-out></testcase>`);
    else {
      failures += 1;
      cases.push(`${head}<failure type="under-threshold" message="${xml(why)}">${xml(why)}</failure></testcase>`);
    }
  }
  const counts = `tests="${cases.length}" failures="${failures}" errors="0" skipped="${skipped}"`;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="API coverage" ${counts} time="0">`,
    `  <testsuite name="API coverage" ${counts} time="0">`,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
