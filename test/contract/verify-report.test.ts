/**
 * `npm run verify -- --report junit=FILE --report ctrf=FILE`: the files
 * validate against the JUnit XSD CI systems read and CTRF's published JSON
 * schema, for a passing run and for the broken Pet Store (whose failing
 * cases carry the failure and the exchange); each check fails on a planted
 * defect; without --report the output is what it always was; a bad
 * --report is a usage error before anything runs.
 */
import { lstatSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { listInteractions, listPactFiles } from '../../contracts/pact-files.js';
import { KEY } from '../support/harness.js';
import { ctrfErrors, junitErrors } from '../support/report-schemas.js';
import { documentedOutput, verify, verifyTargets } from '../support/verify-run.js';

interface CtrfTest {
  name: string;
  status: string;
  suite: string[];
  message?: string;
  trace?: string;
  extra?: { request?: { url: string; headers?: Record<string, string> }; response?: { status: number; body?: string } };
}
interface Ctrf {
  results: { summary: Record<string, number>; tests: CtrfTest[]; extra?: { coverage?: unknown } };
}
interface JUnitCase {
  '@_name': string;
  '@_classname': string;
  failure?: { '@_message': string; '#text': string };
  error?: { '@_message': string; '@_type'?: string; '#text': string };
  skipped?: { '@_message': string };
  'system-out'?: string;
}

const PACT_INTERACTIONS = listInteractions(listPactFiles());
const ADMIN = ['--admin-token', 'sandbox-admin'];

const targets = verifyTargets();
const origin = () => targets.origin;

/** Runs verify with both reports; returns its result and the two files, parsed. */
async function verifyWithReports(name: string, ...args: string[]) {
  const junit = join(targets.dir, `${name}.xml`);
  const ctrf = join(targets.dir, `${name}.json`);
  const result = await verify(...args, '--report', `junit=${junit}`, '--report', `ctrf=${ctrf}`);
  const xml = readFileSync(junit, 'utf8');
  const parsed = new XMLParser({ ignoreAttributes: false, isArray: (tag) => tag === 'testcase' || tag === 'testsuite' }).parse(xml) as {
    testsuites: { testsuite: { '@_name': string; testcase: JUnitCase[] }[] };
  };
  const cases = parsed.testsuites.testsuite.flatMap((suite) => suite.testcase);
  return { ...result, xml, cases, ctrf: JSON.parse(readFileSync(ctrf, 'utf8')) as Ctrf };
}

describe('verify --report', () => {
  it('a passing run: one passed case per Dredd transaction and Pact interaction, both files valid', async () => {
    const { code, out, xml, cases, ctrf } = await verifyWithReports('contracts', '--target', `${origin()}/v1`, '--key', KEY, '--admin-url', origin(), ...ADMIN);
    expect(code, out).toBe(0);
    expect(out).toContain(`Reports: junit ${targets.dir}/contracts.xml, ctrf ${targets.dir}/contracts.json`);
    expect(junitErrors(xml)).toEqual([]);
    expect(ctrfErrors(ctrf)).toEqual([]);

    expect(cases).toHaveLength(9 + PACT_INTERACTIONS.length);
    expect(cases.filter((c) => c['@_classname'] === 'Dredd.spec/openapi.yaml')).toHaveLength(9);
    expect(cases.filter((c) => c['@_classname'] === 'Pact.pet-store-web').map((c) => c['@_name'])).toEqual(PACT_INTERACTIONS.map((i) => i.description));
    expect(cases.filter((c) => c.failure || c.error || c.skipped)).toEqual([]);
    expect(ctrf.results.summary).toMatchObject({ tests: cases.length, passed: cases.length, failed: 0, skipped: 0 });
    // The coverage of the workspace the run used, 401s included: every documented answer.
    const workspace = /Workspace (\w+) \(of --key\)/.exec(out)?.[1];
    expect(ctrf.results.extra?.coverage).toEqual({ workspace, answers: 9, exercised: 9, percent: 100 });
    expect(xml).toContain(`<property name="coverage" value="9 of 9 documented answers exercised (100%) in workspace ${workspace}"/>`);
    // docs/contract-testing.md shows the end of this very output (its folder and workspace id aside).
    const documented = documentedOutput('Reports: junit')
      .replaceAll('/home/ci/app/reports', targets.dir)
      .replace(/workspace [0-9a-f]{16}/g, `workspace ${workspace}`);
    expect(out.slice(-documented.length)).toBe(documented);
    // The key is a credential: reports go to CI artifacts.
    expect(xml).toContain('Authorization: Bearer &lt;redacted&gt;');
    expect(xml).not.toContain(KEY);
    expect(JSON.stringify(ctrf)).not.toContain(KEY);
  }, 120_000);

  it('the broken Pet Store: the failing cases carry the failure, the request and the response, and both files stay valid', async () => {
    // The control plane of the sandbox sets Pact's provider states, the broken Pet Store answers: every layer can fail.
    const { code, out, xml, cases, ctrf } = await verifyWithReports(
      'broken',
      '--target',
      targets.broken.baseUrl,
      '--key',
      KEY,
      '--admin-url',
      origin(),
      ...ADMIN,
    );
    expect(code, out).toBe(1);
    expect(junitErrors(xml)).toEqual([]);
    expect(ctrfErrors(ctrf)).toEqual([]);
    // The control plane is not the target's: its workspace saw none of the requests, so no coverage is claimed.
    expect(out).not.toContain('Coverage:');
    expect(ctrf.results.extra?.coverage).toBeUndefined();
    expect(xml).not.toContain('name="coverage"');

    const listPets = cases.find((c) => c['@_name'] === '/pets > List animals > 200 > application/json');
    expect(listPets?.failure?.['@_message']).toContain('0/id must be integer');
    expect(listPets?.failure?.['#text']).toContain(`GET ${targets.broken.baseUrl}/pets?`);
    expect(listPets?.failure?.['#text']).toContain('[{"id":"1","name":"Rex"');
    expect(listPets?.['system-out']).toMatch(/^Response: 200$/m);
    const getPet404 = cases.find((c) => c['@_name'] === '/pets/{petId} > Get an animal > 404 > application/json');
    expect(getPet404?.failure?.['@_message']).toContain("Expected status code '404', but got '200'");
    expect(getPet404?.failure?.['#text']).toContain('Response: 200 (expected 404)');
    expect(cases.filter((c) => c['@_classname'] === 'Dredd.spec/openapi.yaml' && c.failure)).toHaveLength(6);

    const pact = cases.filter((c) => c['@_classname'] === 'Pact.pet-store-web');
    expect(pact.map((c) => c['@_name'])).toEqual(PACT_INTERACTIONS.map((i) => i.description));
    const sold = pact.find((c) => c['@_name'] === 'a request for at most 10 sold pets');
    expect(sold?.failure?.['@_message']).toContain("$[0].id: Expected '1' (String) to be an integer");
    expect(sold?.failure?.['#text']).toContain('Provider states: pets with status sold exist');
    expect(sold?.failure?.['#text']).toContain('GET /v1/pets?limit=10&status=sold');
    expect(pact.filter((c) => c.failure).length).toBeGreaterThanOrEqual(5);

    const failed = ctrf.results.tests.filter((t) => t.status === 'failed');
    expect(ctrf.results.summary.failed).toBe(failed.length);
    expect(failed.length).toBe(cases.filter((c) => c.failure || c.error).length);
    const ctrfList = ctrf.results.tests.find((t) => t.name === '/pets > List animals > 200 > application/json');
    expect(ctrfList).toMatchObject({ suite: ['Dredd', 'spec/openapi.yaml'], message: expect.stringContaining('0/id must be integer') });
    expect(ctrfList?.extra?.request?.url).toBe(`${targets.broken.baseUrl}/pets?limit=20&status=available`);
    expect(ctrfList?.extra?.response).toMatchObject({ status: 200, body: expect.stringContaining('"id":"1"') });
    expect(ctrfList?.trace).toContain('Response: 200');
  }, 120_000);

  it('a run that could not start (the workspace could not be saved): the report says why, as an error case', async () => {
    const { code, out, xml, cases, ctrf } = await verifyWithReports('unsaved', '--target', `${origin()}/v1`, '--key', 'no-such-key', '--admin-url', origin());
    expect(code, out).toBe(1);
    expect(junitErrors(xml)).toEqual([]);
    expect(ctrfErrors(ctrf)).toEqual([]);
    expect(cases).toEqual([
      {
        '@_name': 'Workspace',
        '@_classname': 'verify.verify',
        '@_time': '0.000',
        error: { '@_message': 'could not be saved, so nothing was run', '@_type': 'verifyFailure', '#text': 'could not be saved, so nothing was run' },
      },
    ]);
    expect(ctrf.results.summary).toMatchObject({ tests: 1, failed: 1 });
  }, 60_000);

  it('each check fails on a planted defect', async () => {
    const { xml, ctrf } = await verifyWithReports('plant', '--target', targets.broken.baseUrl, '--key', KEY);
    expect(junitErrors(xml)).toEqual([]);
    expect(ctrfErrors(ctrf)).toEqual([]);
    // A testcase without its required name; a testsuite without its failure count; a time that is not a number.
    expect(junitErrors(xml.replace(/<testcase name="[^"]*"/, '<testcase')).join('\n')).toMatch(/testcase.*The attribute 'name' is required/);
    expect(junitErrors(xml.replace(/(<testsuite name="[^"]*" tests="\d+") failures="\d+"/, '$1')).join('\n')).toMatch(
      /testsuite.*The attribute 'failures' is required/,
    );
    expect(junitErrors(xml.replace(/<testsuite name="([^"]*)" /, '<testsuite name="$1" time="soon" ')).join('\n')).toMatch(/time/);
    expect(junitErrors(xml.replace('<system-out>', '<stdout>').replace('</system-out>', '</stdout>')).join('\n')).toMatch(/stdout.*not expected/);
    // A test without a status; a status CTRF does not know; a summary without its counts.
    const planted = (change: (report: Ctrf) => void) => {
      const copy = structuredClone(ctrf);
      change(copy);
      return ctrfErrors(copy).join('\n');
    };
    expect(planted((r) => delete (r.results.tests[0] as Partial<CtrfTest>).status)).toContain("must have required property 'status'");
    expect(planted((r) => ((r.results.tests[0] as CtrfTest).status = 'broken'))).toContain(
      '/results/tests/0/status must be equal to one of the allowed values',
    );
    expect(planted((r) => delete r.results.summary.failed)).toContain("must have required property 'failed'");
  }, 120_000);

  it('without --report the output is byte for byte what it was before reports existed; with it, only the Reports line is added', async () => {
    const normalise = (out: string) =>
      out
        .replaceAll(targets.broken.baseUrl.replace(/\/v1$/, ''), '<origin>')
        .replace(/\(node:\d+\)/g, '(node:<pid>)')
        // Node's own deprecation warnings about dependencies differ between Node versions, not between runs.
        .replace(/^\(node:<pid>\) \w*Warning: .*\n/gm, '');
    const expected = normalise(readFileSync(new URL('./fixtures/verify-broken-output.txt', import.meta.url), 'utf8'));
    const plain = await verify('--target', targets.broken.baseUrl, '--key', KEY);
    expect(plain.code).toBe(1);
    expect(normalise(plain.out)).toBe(expected);
    const reported = await verify('--target', targets.broken.baseUrl, '--key', KEY, '--report', `junit=${join(targets.dir, 'same.xml')}`);
    const withoutReportLine = reported.out.replace(`\nReports: junit ${targets.dir}/same.xml\n`, '');
    expect(reported.out).not.toBe(withoutReportLine);
    expect(normalise(withoutReportLine)).toBe(expected);
  }, 120_000);

  it('a path holding what verify did not write: refused before anything runs (a symlink even with --force), overwritten with --force', async () => {
    const notes = join(targets.dir, 'notes.txt');
    const link = join(targets.dir, 'link.json');
    writeFileSync(notes, 'my notes\n');
    symlinkSync(notes, link);
    const refused = await verify('--target', targets.broken.baseUrl, '--key', KEY, '--report', `junit=${notes}`);
    expect(refused.out).toContain(`verify: --report junit=${notes}: cannot write there: it holds something that is not a report verify wrote; pass --force`);
    expect(refused.code).toBe(2);
    const linked = await verify('--target', targets.broken.baseUrl, '--key', KEY, '--force', '--report', `ctrf=${link}`);
    expect(linked.out).toContain(`verify: --report ctrf=${link}: cannot write there: it is a symbolic link`);
    expect(linked.code).toBe(2);
    expect(readFileSync(notes, 'utf8')).toBe('my notes\n');

    const forced = await verify('--target', targets.broken.baseUrl, '--key', KEY, '--force', '--report', `junit=${notes}`);
    expect(forced.out).toContain(`Reports: junit ${notes}`);
    expect(junitErrors(readFileSync(notes, 'utf8'))).toEqual([]);
    // Now a report verify wrote: written again without --force.
    const again = await verify('--target', targets.broken.baseUrl, '--key', KEY, '--report', `junit=${notes}`);
    expect(again.out).toContain(`Reports: junit ${notes}`);
    expect([forced.code, again.code]).toEqual([1, 1]);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
  }, 120_000);

  it.each([
    [['--report', 'html=r.html'], "--report: unknown format 'html' (known: junit, ctrf)"],
    [['--report', 'junit'], '--report takes FORMAT=PATH'],
    [['--report', 'junit='], '--report junit= needs a file path'],
    [['--report', 'junit=/no/such/folder/r.xml'], '--report junit=/no/such/folder/r.xml: cannot write there: its folder /no/such/folder does not exist'],
    [['--report', `ctrf=${'/tmp'}`], '--report ctrf=/tmp: cannot write there: it is a directory'],
    [['--report', 'junit=r.xml', '--report', 'ctrf=./r.xml'], '--report: ./r.xml is given twice'],
  ])(
    'refuses %j before anything runs: exit 2',
    async (args, message) => {
      const { code, out } = await verify('--target', targets.broken.baseUrl, '--key', KEY, ...args);
      expect(out).toContain(`verify: ${message}`);
      expect(out).toContain('Usage: npm run verify');
      expect(out).not.toContain('Verifying');
      expect(code).toBe(2);
    },
    60_000,
  );
});
