/**
 * `verify --spec FILE [--spec FILE ...]`: the sandbox serving those specs
 * checked against each of them. Without `--target`, verify starts that
 * sandbox itself (verify-served.ts); with it, `--target` is the origin the
 * specs' base paths are served under. Dredd runs over every documented
 * response of each spec (spec-plan.ts prepares it, spec-hooks.ts sets up
 * each condition), its bodies checked against that spec; Pact runs the
 * pact files of `--pacts`, if given; the summary and the reports name each
 * API.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { ControlError, createControlClient } from '../src/control/client.js';
import type { PreparedSpec } from './dredd/spec-plan.js';
import type { ReportCase } from './report-case.js';
import { dreddCases, outcomeCases } from './report-cases.js';
import { writeReports, type ReportTarget } from './report-files.js';
import { REPORT_GENERATOR } from './report-run.js';
import { apiCoverageText, coverageText, readRunCoverage, type RunCoverage } from './verify-coverage.js';
import { printDredd, printSummary, type Outcome } from './verify-report.js';
import { plural } from './plural.js';
import { startServed, targetServed, type Served } from './verify-served.js';
import { verifySpecPacts } from './verify-spec-pacts.js';

/** The options of a run with `--spec`. */
export interface SpecArgs {
  specs: readonly string[];
  /** The origin serving the specs; none: verify starts a sandbox. */
  target?: string;
  key?: string;
  adminUrl?: string;
  adminToken: string;
  /** Given explicitly: the committed pacts are the Pet Store's. */
  pactsDir?: string;
  reports: ReportTarget[];
  verbose: boolean;
}

/** The name of an API in the output and the reports: `Inventory 2.0.0 (test/specs/inventory-v2.yaml)`. */
const apiName = (spec: PreparedSpec) => `${spec.title} (${relative(process.cwd(), spec.file) || spec.file})`;

/**
 * The cases with the key replaced wherever a spec's scheme put it: the
 * reports redact the usual credential headers, but a loaded spec may send
 * the key in any header (`X-Api-Key`) or in the query, and reports go to CI
 * artifacts, which many people can read.
 */
function withoutKey(cases: ReportCase[], key: string): ReportCase[] {
  const hide = (text: string) => text.split(key).join('<redacted>').split(encodeURIComponent(key)).join('<redacted>');
  return cases.map((c) =>
    c.request ?
      {
        ...c,
        request: {
          ...c.request,
          url: hide(c.request.url),
          headers:
            c.request.headers &&
            Object.fromEntries(Object.entries(c.request.headers).map(([name, value]) => [name, typeof value === 'string' ? hide(value) : value.map(hide)])),
        },
      }
    : c,
  );
}

/** Reads (and prepares for Dredd) every spec; the problem of the first that cannot be read. */
async function prepareAll(specs: readonly string[], dir: string): Promise<PreparedSpec[] | string> {
  const { prepareSpec } = await import('./dredd/spec-plan.js');
  const prepared: PreparedSpec[] = [];
  for (const [index, file] of specs.entries()) {
    try {
      prepared.push(await prepareSpec(file, dir, index));
    } catch (error) {
      return `cannot read the spec ${file}: ${(error as Error).message}`;
    }
  }
  return prepared;
}

/** The sandbox to check: the target, or one started here; the problem when none can be had. */
async function serve(args: SpecArgs): Promise<Served | string> {
  if (args.target) return targetServed(args.target, args.key as string, args.adminToken);
  try {
    return await startServed(args.specs);
  } catch (error) {
    return `cannot serve the specs: ${(error as Error).message}`;
  }
}

/** The control plane at `adminUrl`, if it answers; the served origin's, when it is the target's own. */
async function controlPlaneOf(served: Served, adminUrl: string): Promise<string | undefined> {
  const control = createControlClient({ origin: adminUrl, adminToken: served.adminToken, key: served.key, timeoutMs: 10_000 });
  try {
    return (await control.call('getHealth')).status === 'ok' ? adminUrl : undefined;
  } catch (error) {
    if (error instanceof ControlError) return undefined;
    throw error;
  }
}

/**
 * The faults of the key's workspace now; the returned function removes any
 * added since: a 401 the hooks had the control plane answer once, whose
 * request was refused earlier (a 400) and left it waiting, would refuse the
 * key's next request long after verify ended.
 */
async function faultsKept(served: Served, controlPlane: string): Promise<() => Promise<void>> {
  const control = createControlClient({ origin: controlPlane, adminToken: served.adminToken, key: served.key, timeoutMs: 10_000 });
  const before = new Set((await control.call('listFaults')).faults.map((fault) => fault.id));
  return async () => {
    for (const fault of (await control.call('listFaults')).faults)
      if (!before.has(fault.id)) await control.call('deleteFault', { path: { faultId: fault.id } });
  };
}

/** Dredd over each spec; adds an outcome and the cases of each. */
async function runSpecs(args: SpecArgs, served: Served, prepared: PreparedSpec[], controlPlane: string | undefined, into: Outcome[], cases: ReportCase[]) {
  const { runDredd } = await import('./dredd/run-dredd.js');
  for (const spec of prepared) {
    const endpoint = `${served.origin}${spec.basePath}`;
    console.log(`\nAPI ${apiName(spec)} at ${endpoint}`);
    for (const body of spec.generatedBodies) console.log(`  request body drawn from the schema (the spec has no example): ${body}`);
    const report = await runDredd({
      endpoint,
      key: served.key,
      adminUrl: controlPlane,
      adminToken: served.adminToken,
      print: args.verbose,
      keyedRefusals: controlPlane === served.origin,
      spec: { file: spec.file, dreddFile: spec.dreddFile, planFile: spec.planFile },
    });
    into.push(printDredd(report, apiName(spec), `Dredd ${spec.title}`));
    cases.push(...withoutKey(dreddCases(report, apiName(spec), endpoint), served.key));
  }
}

/** The coverage of the key's workspace, split by API; a line for each in the summary. */
async function coverageOf(served: Served, controlPlane: string, prepared: PreparedSpec[], into: Outcome[]): Promise<RunCoverage | undefined> {
  const control = createControlClient({ origin: controlPlane, adminToken: served.adminToken, key: served.key, timeoutMs: 10_000 });
  const apis = prepared.map((spec) => ({ name: apiName(spec), operations: spec.operations }));
  const read = await readRunCoverage(control, apis);
  if (!read.coverage) {
    into.push({ tool: 'Coverage', ok: true, skipped: true, line: `not read: ${read.problem ?? 'no answer'}` });
    return undefined;
  }
  into.push({ tool: 'Coverage', ok: true, info: true, line: coverageText(read.coverage) });
  for (const api of read.coverage.apis ?? []) into.push({ tool: `Coverage ${api.api}`, ok: true, info: true, line: apiCoverageText(api) });
  return read.coverage;
}

/** Runs verify with `--spec`; resolves with the exit code. */
export async function verifySpecs(args: SpecArgs): Promise<number> {
  const outcomes: Outcome[] = [];
  const cases: ReportCase[] = [];
  const start = Date.now();
  const dir = await mkdtemp(join(tmpdir(), 'petstore-verify-'));
  let served: Served | string | undefined;
  let coverage: RunCoverage | undefined;
  try {
    const prepared = await prepareAll(args.specs, dir);
    served = typeof prepared === 'string' ? prepared : await serve(args);
    if (typeof prepared === 'string' || typeof served === 'string') {
      outcomes.push({ tool: 'Specs', ok: false, line: typeof prepared === 'string' ? prepared : (served as string) });
    } else {
      const specs = plural(args.specs.length, 'spec');
      console.log(served.started ? `Verifying a sandbox started here, serving ${specs}, at ${served.origin}` : `Verifying ${served.origin} (${specs})`);
      if (!served.started) console.log('Changes: Dredd creates, replaces and removes items with --key; they stay.');
      const controlPlane = await controlPlaneOf(served, args.adminUrl ?? served.origin);
      const removeFaults = controlPlane === served.origin && !served.started ? await faultsKept(served, controlPlane) : undefined;
      try {
        await runSpecs(args, served, prepared, controlPlane, outcomes, cases);
      } finally {
        await removeFaults?.();
      }
      await verifySpecPacts(args, { served, prepared, controlPlane }, outcomes, cases);
      if (controlPlane === served.origin) coverage = await coverageOf(served, controlPlane, prepared, outcomes);
    }
  } finally {
    if (typeof served === 'object') await served.close();
    await rm(dir, { recursive: true, force: true });
  }
  if (args.reports.length > 0) {
    const run = { name: REPORT_GENERATOR, target: args.target ?? (typeof served === 'object' ? served.origin : ''), start, stop: Date.now(), coverage };
    const { written, problems } = writeReports(args.reports, [...outcomeCases(outcomes), ...cases], run);
    console.log(`\nReports: ${written.length ? written.join(', ') : 'none written'}`);
    for (const problem of problems) outcomes.push({ tool: 'Report', ok: false, line: `could not write ${problem}` });
  }
  return printSummary(outcomes) ? 0 : 1;
}
