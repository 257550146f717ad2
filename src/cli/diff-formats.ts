import type { SpecDiff } from '../openapi/spec-diff.js';

/** The formats `diff` writes its report in. */
export type DiffFormat = 'json' | 'markdown';
export const DIFF_FORMATS: readonly DiffFormat[] = ['json', 'markdown'];

/** A compared document as the report names it: its file, title and version. */
export interface DiffSide {
  file: string;
  title?: string;
  version?: string;
}

/** The report: the two documents, the counts, and each change, the breaking ones first. */
export type DiffReport = { old: DiffSide; new: DiffSide } & SpecDiff;

/** `1 change`, `2 changes`: a count with its noun. */
const plural = (count: number, one: string): string => `${count} ${count === 1 ? one : `${one}s`}`;

/** The one line that sums the report up. */
export const diffSummary = (r: DiffReport): string => `${plural(r.breaking, 'breaking change')}, ${plural(r.compatible, 'compatible change')}`;

/** A table cell's text: a `|` would end the cell, a line break the row. */
const cell = (text: string): string => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

const side = (s: DiffSide): string => `\`${s.file}\`${s.title === undefined ? '' : ` (${s.title}${s.version === undefined ? '' : ` ${s.version}`})`}`;

/** The report as Markdown (a CI job's step summary, a pull request's comment): a table of changes, the breaking ones first. */
export function diffMarkdown(r: DiffReport): string {
  const lines = [`## Spec changes: ${diffSummary(r)}`, '', `From ${side(r.old)} to ${side(r.new)}.`, ''];
  if (r.changes.length === 0) lines.push('No change a consumer would notice.');
  else {
    lines.push('| Change | Operation | Where | What |', '|---|---|---|---|');
    for (const c of r.changes) {
      const operation = `\`${c.operation}\`${c.operationId === undefined ? '' : ` (\`${c.operationId}\`)`}`;
      lines.push(`| ${c.breaking ? '**breaking**' : 'compatible'} | ${cell(operation)} | ${cell(c.where)} | ${cell(c.what)} |`);
    }
  }
  return `${lines.join('\n')}\n`;
}

/** The report in a format. */
export const writeDiff = (report: DiffReport, format: DiffFormat): string =>
  format === 'json' ? `${JSON.stringify(report, null, 2)}\n` : diffMarkdown(report);
