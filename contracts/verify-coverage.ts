/**
 * The API coverage of the workspace verify ran in, as the sandbox counts it
 * (`GET /__sandbox/coverage` with the key's workspace): the same numbers as
 * `petstore-sandbox coverage --key <key>` reads afterwards. verify asks its
 * 401s of that workspace (run-dredd.ts, `keyedRefusals`), so a full run
 * exercises every documented answer there.
 */
import type { ControlClient } from '../src/control/client.js';
import type { Outcome } from './verify-report.js';

/** The documented answers of the interface exercised in one workspace. */
export interface RunCoverage {
  /** The workspace's id as the control plane names it (never the key). */
  workspace: string;
  answers: number;
  exercised: number;
  /** `exercised` of `answers`, rounded down to one decimal, as the sandbox reports it. */
  percent: number;
}

/** The workspace's coverage; undefined (with why) when the control plane would not give it. */
export async function readRunCoverage(control: ControlClient): Promise<{ coverage?: RunCoverage; problem?: string }> {
  try {
    const report = await control.call('readCoverage', { query: {} });
    return { coverage: { workspace: report.workspace ?? '?', ...report.documented } };
  } catch (error) {
    return { problem: (error as Error).message };
  }
}

/** `9 of 9 documented answers exercised (100%) in workspace 3ad2b6c8a8e61f4e`. */
export const coverageText = (c: RunCoverage): string =>
  `${c.exercised} of ${c.answers} documented answers exercised (${c.percent}%) in workspace ${c.workspace}`;

/** The summary's line: informative, never a failure (`petstore-sandbox coverage --fail-under` is the threshold). */
export function coverageOutcome(read: { coverage?: RunCoverage; problem?: string }): Outcome {
  if (read.coverage) return { tool: 'Coverage', ok: true, info: true, line: coverageText(read.coverage) };
  return { tool: 'Coverage', ok: true, skipped: true, line: `not read: ${read.problem ?? 'no answer'}` };
}
