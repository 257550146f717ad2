/**
 * Pact in `verify --spec`: the pact files of `--pacts` replayed against the
 * APIs served from the specs. The committed pacts (contracts/pacts) are
 * the embedded Pet Store's consumers', so they are not run unless asked
 * for; provider states are the sandbox's vocabulary, which sets up the Pet
 * Store's pets, so a pact of a loaded API uses interactions without one.
 */
import { listInteractions, listPactFiles } from './pact-files.js';
import { plural } from './plural.js';
import type { ReportCase } from './report-case.js';
import { pactCases } from './report-cases.js';
import { recordPactRun } from './pact-outcome.js';
import type { PreparedSpec } from './dredd/spec-plan.js';
import type { Outcome } from './verify-report.js';
import type { Served } from './verify-served.js';

/** The headers the key goes in: every header credential of the loaded specs (an API key in a query has no place here). */
export function keyHeaders(prepared: readonly PreparedSpec[], key: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const credential of prepared.flatMap((spec) => spec.headerCredentials)) headers[credential.name] ??= `${credential.prefix}${key}`;
  return headers;
}

/** What the Pact run needs of the verification: the sandbox, the specs, the control plane (where states are set). */
export interface SpecPactsContext {
  served: Served;
  prepared: readonly PreparedSpec[];
  controlPlane: string | undefined;
}

/** Runs the pacts of `--pacts` against the served APIs, or says why not; adds an outcome and a case per interaction. */
export async function verifySpecPacts(
  args: { pactsDir?: string; verbose: boolean; reports: readonly unknown[] },
  context: SpecPactsContext,
  outcomes: Outcome[],
  cases: ReportCase[],
): Promise<void> {
  const skip = (line: string) => outcomes.push({ tool: 'Pact', ok: true, skipped: true, line });
  if (!args.pactsDir) return void skip("skipped (the committed pacts are the Pet Store's: give --pacts <dir> with pacts of the loaded APIs)");
  const files = listPactFiles(args.pactsDir);
  const interactions = () => (args.reports.length ? listInteractions(files) : []);
  if (!context.controlPlane) {
    skip('skipped (no control plane to set provider states)');
    cases.push(...pactCases(interactions(), [], { status: 'skipped', message: 'no /__sandbox control plane to set provider states' }));
    return;
  }
  if (files.length === 0) return void skip(`skipped (no pact files in ${args.pactsDir})`);
  console.log(`\nPact: verifying ${plural(files.length, 'pact file')} from ${args.pactsDir}\n`);
  const { verifyPacts } = await import('./provider/verify-pacts.js');
  const { served, controlPlane } = context;
  const verify = () =>
    verifyPacts({
      target: served.origin,
      key: served.key,
      adminUrl: controlPlane,
      pactFiles: files,
      logLevel: args.verbose ? 'info' : 'error',
      served: { origin: served.origin, headers: keyHeaders(context.prepared, served.key) },
    });
  await recordPactRun(verify, interactions, outcomes, cases);
}
