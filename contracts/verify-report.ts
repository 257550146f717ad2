import type { DreddReport } from './dredd/run-dredd.js';
import { plural } from './plural.js';

/** One line of the final summary. */
export interface Outcome {
  tool: string;
  ok: boolean;
  skipped?: boolean;
  /** A line that informs and decides nothing (the coverage). */
  info?: boolean;
  line: string;
}

const indent = (text: string) =>
  text
    .trim()
    .split('\n')
    .map((line) => `          ${line}`)
    .join('\n');

/** Prints each Dredd transaction with why it failed (or was skipped); returns its summary line, under `tool`. */
export function printDredd(report: DreddReport, heading = 'spec/openapi.yaml', tool = 'Dredd'): Outcome {
  console.log(`Dredd: ${heading}`);
  for (const result of report.results) {
    console.log(`  ${result.status.toUpperCase().padEnd(6)}  ${result.name}`);
    if (result.status !== 'pass' && result.message.trim()) console.log(indent(result.message));
  }
  const { tests, passes, failures, errors, skipped } = report.stats;
  const counts = `${failures ? `, ${failures} failed` : ''}${errors ? `, ${errors} errored` : ''}${skipped ? `, ${skipped} skipped` : ''}`;
  return { tool, ok: report.ok, line: `${passes} of ${plural(tests, 'transaction')} passed${counts}` };
}

/** Prints the summary; true when every check passed or was skipped. */
export function printSummary(outcomes: Outcome[]): boolean {
  const ok = outcomes.every((o) => o.ok);
  console.log('\nSummary');
  for (const o of outcomes)
    console.log(
      `  ${(o.skipped ? 'SKIP'
      : o.info ? 'INFO'
      : o.ok ? 'PASS'
      : 'FAIL'
      ).padEnd(5)} ${o.tool}: ${o.line}`,
    );
  console.log(`\nRESULT: ${ok ? 'PASS' : 'FAIL'}`);
  return ok;
}
