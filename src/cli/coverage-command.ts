import type { ControlClient } from '../control/client.js';
import { coverageJunit, coverageMarkdown, type CoverageFormat } from '../control/coverage-formats.js';

type Extra = Record<string, string | boolean | undefined>;

const FORMATS: readonly CoverageFormat[] = ['json', 'markdown', 'junit'];
const WRITE: Record<CoverageFormat, (report: Parameters<typeof coverageMarkdown>[0]) => string> = {
  json: (report) => `${JSON.stringify(report, null, 2)}\n`,
  markdown: coverageMarkdown,
  junit: coverageJunit,
};

/** `--fail-under` as the control plane takes it: a percentage from 0 to 100, else undefined. */
const failUnderOf = (raw: Extra[string]): number | undefined =>
  typeof raw === 'string' && /^\d+(\.\d+)?$/.test(raw) && Number(raw) <= 100 ? Number(raw) : undefined;

/** What is wrong with a `coverage` command line (a usage error): more than a file, or what the control plane would refuse; else undefined. */
export function coverageUsageProblem(operands: readonly string[], extra: Extra): string | undefined {
  if (operands.length > 1) return 'Usage: coverage [file] [--format json|markdown|junit] [--fail-under N] [--all]';
  if (extra.format !== undefined && !FORMATS.includes(extra.format as CoverageFormat))
    return `--format must be one of ${FORMATS.join(', ')}, got '${String(extra.format)}'.`;
  if (extra['fail-under'] !== undefined && failUnderOf(extra['fail-under']) === undefined)
    return `--fail-under must be a percentage from 0 to 100, got '${String(extra['fail-under'])}'.`;
  return undefined;
}

/**
 * `coverage [file] [--format json|markdown|junit] [--fail-under N] [--all]`:
 * the report read once as JSON and written in the format asked (by the
 * writers the control plane uses; the options checked by `coverageUsageProblem`); `missed` says why the command fails
 * (exit 1, once the report is written) when it is under the threshold.
 */
export async function coverageReport(client: ControlClient, extra: Extra): Promise<{ text: string; missed?: string }> {
  const failUnder = failUnderOf(extra['fail-under']);
  const query = { format: 'json' as const, ...(failUnder === undefined ? {} : { 'fail-under': failUnder }), ...(extra.all === true ? { all: true } : {}) };
  const report = await client.call('readCoverage', { query });
  const text = WRITE[(extra.format ?? 'json') as CoverageFormat](report);
  const { threshold, documented } = report;
  if (!threshold || threshold.met) return { text };
  const share = `${documented.exercised} of ${documented.answers} documented answers exercised (${documented.percent}%)`;
  return { text, missed: `${share}, under --fail-under ${threshold.failUnder}%.` };
}
