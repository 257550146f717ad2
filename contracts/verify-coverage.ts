/**
 * The API coverage of the workspace verify ran in, as the sandbox counts it
 * (`GET /__sandbox/coverage` with the key's workspace): the same numbers as
 * `petstore-sandbox coverage --key <key>` reads afterwards. verify asks its
 * 401s of that workspace (run-dredd.ts, `keyedRefusals`), so a full run
 * exercises every documented answer there.
 */
import type { ControlClient } from '../src/control/client.js';
import type { Outcome } from './verify-report.js';

/** An operation of the coverage report: its id, its path as served and its documented statuses' counts. */
interface CoverageOperation {
  operationId: string;
  method: string;
  path: string;
  statuses: { status: number; count: number }[];
}

/** The documented answers of the interface exercised in one workspace. */
export interface RunCoverage {
  /** The workspace's id as the control plane names it (never the key). */
  workspace: string;
  answers: number;
  exercised: number;
  /** `exercised` of `answers`, rounded down to one decimal, as the sandbox reports it. */
  percent: number;
  /** With `verify --spec`: the same counts for each API served (by its name). */
  apis?: ApiCoverage[];
}

/** The documented answers of one API served from a spec, exercised in the workspace. */
export interface ApiCoverage {
  api: string;
  answers: number;
  exercised: number;
  percent: number;
}

/** An API as the coverage is split by: its name and its operations. */
export interface CoveredApi {
  name: string;
  operations: readonly { operationId: string; method: string; template: string }[];
}

/** The workspace's coverage; undefined (with why) when the control plane would not give it. */
export async function readRunCoverage(control: ControlClient, apis?: readonly CoveredApi[]): Promise<{ coverage?: RunCoverage; problem?: string }> {
  try {
    const report = await control.call('readCoverage', { query: {} });
    const coverage: RunCoverage = { workspace: report.workspace ?? '?', ...report.documented };
    if (apis) coverage.apis = apis.map((api) => apiCoverage(api, report.operations));
    return { coverage };
  } catch (error) {
    return { problem: (error as Error).message };
  }
}

/** One API's share of the workspace's coverage: the operations of its spec (by id, method and the end of the path). */
function apiCoverage(api: CoveredApi, operations: readonly CoverageOperation[]): ApiCoverage {
  const ours = (op: CoverageOperation) =>
    api.operations.some((o) => o.operationId === op.operationId && o.method === op.method && op.path.endsWith(o.template));
  const mine = operations.filter(ours);
  const statuses = mine.flatMap((op) => op.statuses);
  const exercised = statuses.filter((s) => s.count > 0).length;
  const percent = statuses.length === 0 ? 0 : Math.floor((exercised / statuses.length) * 1000) / 10;
  return { api: api.name, answers: statuses.length, exercised, percent };
}

/** `9 of 9 documented answers exercised (100%) in workspace 3ad2b6c8a8e61f4e`. */
export const coverageText = (c: RunCoverage): string =>
  `${c.exercised} of ${c.answers} documented answers exercised (${c.percent}%) in workspace ${c.workspace}`;

/** `23 of 23 documented answers exercised (100%)`. */
export const apiCoverageText = (c: ApiCoverage): string => `${c.exercised} of ${c.answers} documented answers exercised (${c.percent}%)`;

/** The summary's line: informative, never a failure (`petstore-sandbox coverage --fail-under` is the threshold). */
export function coverageOutcome(read: { coverage?: RunCoverage; problem?: string }): Outcome {
  if (read.coverage) return { tool: 'Coverage', ok: true, info: true, line: coverageText(read.coverage) };
  return { tool: 'Coverage', ok: true, skipped: true, line: `not read: ${read.problem ?? 'no answer'}` };
}
