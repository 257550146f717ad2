/**
 * `verify --target <base URL ending in /v1> --key <key>
 *  [--admin-url <origin> --admin-token <token>] [--report FORMAT=PATH]`,
 * as `npm run verify` (verify.ts) and the package's `petstore-sandbox
 * verify` (verify-command.ts) run it.
 *
 * Checks any deployment of the Pet Store interface against its contracts:
 * Dredd over every documented response of spec/openapi.yaml, then every
 * pact file in contracts/pacts where provider states can be set (the target
 * has a /__sandbox control plane). Exit 0 = all passed, 1 = a contract is
 * broken or a check could not run, 2 = bad usage.
 */
import { parseArgs } from 'node:util';
import { ControlError, createControlClient, type ControlClient } from '../src/control/client.js';
import { listInteractions, listPactFiles, PACTS_DIR } from './pact-files.js';
import type { ReportCase } from './report-case.js';
import { dreddCases, outcomeCases, pactCases } from './report-cases.js';
import { parseReportTargets, writeReports, type ReportTarget } from './report-files.js';
import { REPORT_GENERATOR } from './report-run.js';
import { printDredd, printSummary, type Outcome } from './verify-report.js';
import { restoreWorkspace, saveWorkspace } from './verify-workspace.js';
import { restoreOnSignal } from './workspace-guard.js';
import { VERIFY_OPTIONS } from './verify-options.js';
import { coverageOutcome, readRunCoverage, type RunCoverage } from './verify-coverage.js';
import { plural } from './plural.js';
import { recordPactRun } from './pact-outcome.js';
import { specFilesOf, specTargetOf, usage, UsageError, type VerifyProgram } from './verify-usage.js';
import type { SpecArgs } from './verify-specs.js';

export type { VerifyProgram } from './verify-usage.js';

/** Whether two addresses name the same place (`http://h:80/` and `http://h`). */
const sameAddress = (a: string, b: string): boolean => new URL(a).href.replace(/\/+$/, '') === new URL(b).href.replace(/\/+$/, '');

/** Whether the address serves a control plane: `/__sandbox/health` answers `{status: "ok"}` (it needs no token). */
async function hasControlPlane(control: ControlClient): Promise<boolean> {
  try {
    return (await control.call('getHealth')).status === 'ok';
  } catch (error) {
    if (error instanceof ControlError) return false;
    throw error;
  }
}

function parseValues(argv: string[]) {
  try {
    return parseArgs({ args: argv, options: VERIFY_OPTIONS }).values;
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

type Values = ReturnType<typeof parseValues>;

function reportsOf(values: Values): ReportTarget[] {
  try {
    return parseReportTargets(values.report, process.cwd(), values.force === true);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

/** The options of a run with `--spec` (verify-specs.ts). */
const specArgsOf = (values: Values, specs: readonly string[]): SpecArgs => ({
  specs,
  target: specTargetOf(values.target, values.key),
  key: values.key,
  adminUrl: values['admin-url']?.replace(/\/+$/, ''),
  adminToken: values['admin-token'] ?? process.env.PETSTORE_ADMIN_TOKEN ?? 'sandbox-admin',
  pactsDir: values.pacts,
  reports: reportsOf(values),
  verbose: values.verbose === true,
});

function readArgs(argv: string[]) {
  const values = parseValues(argv);
  if (values.help) return undefined;
  const specs = specFilesOf(values.spec);
  if (specs.length > 0) return { specArgs: specArgsOf(values, specs) };
  if (!values.target) throw new UsageError('--target is required');
  if (!values.key) throw new UsageError('--key is required');
  let url: URL;
  try {
    url = new URL(values.target);
  } catch {
    throw new UsageError(`--target is not a URL: '${values.target}'`);
  }
  if (!/^https?:$/.test(url.protocol) || !/\/v1\/?$/.test(url.pathname))
    throw new UsageError(`--target must be an http(s) URL ending in /v1, got '${values.target}'`);
  return {
    specArgs: undefined,
    reports: reportsOf(values),
    target: values.target.replace(/\/+$/, ''),
    key: values.key,
    adminUrl: values['admin-url']?.replace(/\/+$/, ''),
    adminToken: values['admin-token'] ?? process.env.PETSTORE_ADMIN_TOKEN ?? 'sandbox-admin',
    pactsDir: values.pacts ?? PACTS_DIR,
    verbose: values.verbose === true,
  };
}

/** Runs verify on its own options (`argv`, without the program's name); resolves with the exit code. */
export async function verifyMain(argv: string[], program: VerifyProgram): Promise<number> {
  let args;
  try {
    args = readArgs(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    console.error(`verify: ${error.message}\n\n${usage(program)}`);
    return 2;
  }
  if (!args) {
    console.log(usage(program));
    return 0;
  }
  if (args.specArgs) return (await import('./verify-specs.js')).verifySpecs(args.specArgs);
  // Loaded only now: Dredd and Pact take seconds to import, a usage error should not wait for them.
  const { CONTROL_TIMEOUT_MS, providerBaseUrl } = await import('./provider/verify-pacts.js');
  const outcomes: Outcome[] = [];
  const cases: ReportCase[] = [];
  const start = Date.now();
  console.log(`Verifying ${args.target}\n`);

  // The control plane: asked for explicitly, or looked for next to the API.
  const adminUrl = args.adminUrl ?? providerBaseUrl(args.target);
  const control = createControlClient({ origin: adminUrl, adminToken: args.adminToken, key: args.key, timeoutMs: CONTROL_TIMEOUT_MS });
  let controlPlane: string | undefined;
  if (await hasControlPlane(control)) {
    try {
      const { mode } = await control.call('getMode');
      controlPlane = adminUrl;
      console.log(`Control plane: ${adminUrl}/__sandbox (${mode} mode)\n`);
    } catch (error) {
      console.log(`Control plane: ${adminUrl}/__sandbox refused the admin token: ${(error as Error).message}\n`);
      outcomes.push({ tool: 'Control plane', ok: false, line: 'admin token refused (pass --admin-token)' });
    }
  } else if (args.adminUrl) {
    console.log(`Control plane: none at ${adminUrl}/__sandbox/health\n`);
    outcomes.push({ tool: 'Control plane', ok: false, line: `--admin-url ${adminUrl} has no /__sandbox control plane` });
  } else {
    console.log(`Control plane: none at ${adminUrl}/__sandbox (Dredd finds an existing pet through the API instead)\n`);
  }

  // The control plane's workspace sees the requests only when it is the target's own (served next to it).
  const servesTarget = controlPlane !== undefined && sameAddress(controlPlane, providerBaseUrl(args.target));
  const guard = controlPlane ? await saveWorkspace(control, controlPlane, program.cli) : undefined;
  if (guard === null) {
    outcomes.push({ tool: 'Workspace', ok: false, line: 'could not be saved, so nothing was run' });
    report(args, outcomes, cases, start);
    printSummary(outcomes);
    return 1;
  }
  if (!controlPlane) console.log(`Changes: Dredd creates pets with --key (one for createPet's 201, one more if the list is empty); they stay.\n`);
  const stopWatching = guard ? restoreOnSignal(guard.restore, (problem) => console.error(`verify: could not restore the workspace: ${problem}`)) : undefined;
  try {
    await runChecks(args, controlPlane, outcomes, cases, servesTarget);
  } finally {
    // Restored before the handlers go: a signal meanwhile waits for the same restore.
    if (guard) outcomes.push(await restoreWorkspace(guard));
    stopWatching?.();
  }
  // The counts stay when the workspace is restored: read after, so the run's every request is in.
  const read = servesTarget ? await readRunCoverage(control) : undefined;
  if (read) outcomes.push(coverageOutcome(read));
  report(args, outcomes, cases, start, read?.coverage);
  return printSummary(outcomes) ? 0 : 1;
}

/** Writes the `--report` files, if any; a file that cannot be written fails the run. */
function report(args: Args, outcomes: Outcome[], cases: ReportCase[], start: number, coverage?: RunCoverage): void {
  if (args.reports.length === 0) return;
  const run = { name: REPORT_GENERATOR, target: args.target, start, stop: Date.now(), coverage };
  const { written, problems } = writeReports(args.reports, [...outcomeCases(outcomes), ...cases], run);
  console.log(`\nReports: ${written.length ? written.join(', ') : 'none written'}`);
  for (const problem of problems) outcomes.push({ tool: 'Report', ok: false, line: `could not write ${problem}` });
}

type Args = Exclude<NonNullable<ReturnType<typeof readArgs>>, { specArgs: SpecArgs }>;

/** Dredd, then Pact where provider states can be set; each adds its outcome. */
async function runChecks(args: Args, controlPlane: string | undefined, outcomes: Outcome[], cases: ReportCase[], servesTarget: boolean): Promise<void> {
  const [{ runDredd }, { verifyPacts }] = await Promise.all([import('./dredd/run-dredd.js'), import('./provider/verify-pacts.js')]);
  const dredd = await runDredd({
    endpoint: args.target,
    key: args.key,
    adminUrl: controlPlane,
    adminToken: args.adminToken,
    print: args.verbose,
    // Its 401s asked of the key's workspace, so that the workspace's coverage counts them.
    keyedRefusals: servesTarget,
  });
  outcomes.push(printDredd(dredd));
  cases.push(...dreddCases(dredd, 'spec/openapi.yaml', args.target));

  const files = listPactFiles(args.pactsDir);
  // Read only for a report: verify without --report reads the pact files exactly as before.
  const interactions = () => (args.reports.length ? listInteractions(files) : []);
  if (!controlPlane) {
    console.log('\nPact: SKIPPED: provider states can only be set through a /__sandbox control plane, and the target has none (or it refused the token).');
    outcomes.push({ tool: 'Pact', ok: true, skipped: true, line: 'skipped (no control plane to set provider states)' });
    cases.push(...pactCases(interactions(), [], { status: 'skipped', message: 'no /__sandbox control plane to set provider states' }));
  } else if (files.length === 0) {
    outcomes.push({ tool: 'Pact', ok: true, skipped: true, line: `skipped (no pact files in ${args.pactsDir})` });
  } else {
    console.log(`\nPact: verifying ${plural(files.length, 'pact file')} from ${args.pactsDir}\n`);
    const verify = () =>
      verifyPacts({
        target: args.target,
        key: args.key,
        adminUrl: controlPlane,
        pactFiles: files,
        logLevel: args.verbose ? 'info' : 'error',
      });
    await recordPactRun(verify, interactions, outcomes, cases);
  }
}
