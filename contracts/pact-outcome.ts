/**
 * One Pact verification's outcome and report cases, whichever way verify
 * runs it (the Pet Store's pacts, or those of loaded specs): verified, with
 * a case per interaction; or failed, in the verifier's own words.
 */
import { plural } from './plural.js';
import type { PactInteraction } from './pact-files.js';
import type { PactSummary } from './provider/verify-pacts.js';
import type { ReportCase } from './report-case.js';
import { pactCases } from './report-cases.js';
import type { Outcome } from './verify-report.js';

/** Runs `verify` and records what came of it in `outcomes` and `cases`. */
export async function recordPactRun(
  verify: () => Promise<PactSummary>,
  interactions: () => PactInteraction[],
  outcomes: Outcome[],
  cases: ReportCase[],
): Promise<void> {
  const { PactFailure } = await import('./provider/verify-pacts.js');
  try {
    const summary = await verify();
    outcomes.push({ tool: 'Pact', ok: true, line: `${plural(summary.interactions, 'interaction')} of ${summary.consumers.join(', ')} verified` });
    cases.push(...pactCases(interactions(), summary.results, { status: 'error', message: 'the verifier reported no result for it' }));
  } catch (error) {
    const message = (error as Error).message;
    console.log(`\n${message}`);
    outcomes.push({ tool: 'Pact', ok: false, line: message.split('\n').slice(1).join('; ') || 'verification failed' });
    const results = error instanceof PactFailure ? error.results : [];
    cases.push(...pactCases(interactions(), results, { status: 'error', message: message.split('\n').slice(1).join('; ') || message }));
  }
}
