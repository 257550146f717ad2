/**
 * The test cases of a `verify` run, from Dredd's results, the Pact
 * verifier's results and the pact files, and the checks around them.
 */
import type { DreddReport } from './dredd/run-dredd.js';
import type { PactInteraction } from './pact-files.js';
import type { VerifierInteraction } from './provider/verify-pacts.js';
import type { ReportCase, ReportMismatch } from './report-case.js';
import type { Outcome } from './verify-report.js';

const STATUS = { pass: 'passed', fail: 'failed', error: 'error', skip: 'skipped' } as const;

/** One case per Dredd transaction, with the request it sent (to `target`, the base address) and the answer it got. */
export function dreddCases(report: DreddReport, spec: string, target: string): ReportCase[] {
  return report.results.map((result) => ({
    tool: 'Dredd',
    group: spec,
    name: result.name,
    status: STATUS[result.status],
    durationMs: result.durationMs,
    message: result.message.trim(),
    request: result.request && {
      method: result.request.method,
      url: `${target}${result.request.uri}`,
      headers: result.request.headers,
      body: result.request.body,
    },
    response: result.response && { status: result.response.statusCode, headers: result.response.headers, body: result.response.body },
    expectedStatus: result.expectedStatus,
  }));
}

/** The verifier's durations: `97ms`, `1s 20ms`, `2m 1s`. */
export function parseDuration(text: string | undefined): number {
  const unit: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
  let total = 0;
  for (const [, value, name] of (text ?? '').matchAll(/(\d+(?:\.\d+)?)\s*(ms|s|m|h)\b/g)) total += Number(value) * (unit[name as string] ?? 0);
  return Math.round(total);
}

const text = (value: unknown) =>
  value === undefined ? undefined
  : typeof value === 'string' ? value
  : JSON.stringify(value);

function mismatchesOf(result: VerifierInteraction): ReportMismatch[] {
  return (result.mismatch?.mismatches ?? []).map((m) => ({
    type: m.type,
    path: m.path ?? m.key,
    expected: text(m.expected),
    actual: text(m.actual),
    mismatch: m.mismatch,
  }));
}

const sameInteraction = (interaction: PactInteraction, result: VerifierInteraction) =>
  interaction.consumer === result.consumer && interaction.description === result.description;

/**
 * One case per interaction of the pact files. With the verifier's results,
 * each has its verdict and differences; without them (Pact was skipped, or
 * failed before anything was sent) each carries `reason`.
 */
export function pactCases(
  interactions: PactInteraction[],
  results: VerifierInteraction[],
  reason: { status: 'skipped' | 'error'; message: string },
): ReportCase[] {
  return interactions.map((interaction) => {
    const base = {
      tool: 'Pact',
      group: interaction.consumer,
      name: interaction.description,
      providerStates: interaction.providerStates,
      request: interaction.request,
    };
    const result = results.find((r) => sameInteraction(interaction, r));
    if (!result) return { ...base, status: reason.status, durationMs: 0, message: reason.message };
    if (result.result === 'OK') return { ...base, status: 'passed', durationMs: parseDuration(result.duration), message: '' };
    const mismatches = mismatchesOf(result);
    // Differences mean the answer broke the pact; a message alone (a failed state set-up, no answer) means it could not be checked.
    const message =
      mismatches.length > 0 ? mismatches.map((m) => `${m.path ? `${m.path}: ` : ''}${m.mismatch}`).join('; ') : (result.mismatch?.message ?? result.result);
    return { ...base, status: mismatches.length > 0 ? 'failed' : 'error', durationMs: parseDuration(result.duration), message, mismatches };
  });
}

/** The checks around Dredd and Pact (control plane, workspace) that failed: a case each, so a report never hides why a run failed. */
export function outcomeCases(outcomes: Outcome[]): ReportCase[] {
  return outcomes
    .filter((o) => !o.ok && !o.tool.startsWith('Dredd') && o.tool !== 'Pact')
    .map((o) => ({ tool: 'verify', group: 'verify', name: o.tool, status: 'error', durationMs: 0, message: o.line }));
}
