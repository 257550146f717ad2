/**
 * The `verify --report` writers on cases a real run rarely produces: text
 * XML cannot hold, credentials, long bodies, Pact results without an
 * interaction's verdict; and how `--report` values are read.
 */
import { XMLParser } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import type { PactInteraction } from '../../contracts/pact-files.js';
import { BODY_LIMIT, cutBody, describeExchange, type ReportCase } from '../../contracts/report-case.js';
import { pactCases, parseDuration } from '../../contracts/report-cases.js';
import { toCtrf } from '../../contracts/report-ctrf.js';
import { parseReportTargets } from '../../contracts/report-files.js';
import { toJUnit } from '../../contracts/report-junit.js';
import { tempDir } from '../support/harness.js';
import { ctrfErrors, junitErrors } from '../support/report-schemas.js';

const RUN = { name: 'petstore-sandbox verify', target: 'http://127.0.0.1:1/v1', start: 1_700_000_000_000, stop: 1_700_000_001_234 };

const awkward: ReportCase = {
  tool: 'Dredd',
  group: 'spec/openapi.yaml',
  name: '/pets > "quoted" & <angled>',
  status: 'failed',
  durationMs: 12.6,
  message: 'line one\nline two \u001b[31mred\u001b[0m \u0001 bell\ttab',
  request: {
    method: 'POST',
    url: 'http://127.0.0.1:1/v1/pets',
    headers: { Authorization: 'Bearer top-secret', 'X-Sandbox-Key': 'other-secret' },
    body: '{"name":"]]>"}',
  },
  response: { status: 422, headers: { 'content-type': 'text/html' }, body: `<html>${'x'.repeat(BODY_LIMIT + 10)}</html>` },
  expectedStatus: '400',
};

describe('the JUnit writer', () => {
  it('writes what XML cannot hold as valid XML: escaped, control characters replaced, line breaks kept in attributes', () => {
    const xml = toJUnit([awkward], RUN);
    expect(junitErrors(xml)).toEqual([]);
    const parsed = new XMLParser({ ignoreAttributes: false, htmlEntities: true }).parse(xml) as {
      testsuites: { testsuite: { testcase: { '@_name': string; failure: { '@_message': string; '#text': string } } } };
    };
    const testcase = parsed.testsuites.testsuite.testcase;
    expect(testcase['@_name']).toBe('/pets > "quoted" & <angled>');
    expect(testcase.failure['@_message']).toBe('line one\nline two red \uFFFD bell\ttab');
    expect(testcase.failure['#text']).toContain('Response: 422 (expected 400)');
  });

  it('never writes a credential, and cuts long bodies saying how much was left out', () => {
    const text = describeExchange(awkward);
    expect(text).toContain('Authorization: Bearer <redacted>');
    expect(text).toContain('X-Sandbox-Key: <redacted>');
    expect(text).not.toContain('secret');
    expect(text).toContain(`... (${(awkward.response?.body?.length ?? 0) - BODY_LIMIT} more characters)`);
    expect(text).not.toContain('</html>');
    const ctrf = JSON.stringify(toCtrf([awkward], RUN));
    expect(ctrf).not.toContain('secret');
  });
});

describe('the CTRF writer', () => {
  it('counts an error as failed, keeps it as rawStatus, and stays valid', () => {
    const report = toCtrf(
      [
        { ...awkward, status: 'error' },
        { ...awkward, name: 'other', status: 'skipped', message: 'why' },
      ],
      RUN,
    ) as {
      results: { summary: Record<string, number>; tests: { status: string; rawStatus: string; duration: number }[] };
    };
    expect(ctrfErrors(report)).toEqual([]);
    expect(report.results.summary).toMatchObject({ tests: 2, failed: 1, skipped: 1, passed: 0, duration: 1234 });
    expect(report.results.tests[0]).toMatchObject({ status: 'failed', rawStatus: 'error', duration: 13 });
  });

  it('cuts bodies as the JUnit writer does: a 3 MB response, a long request and the sides of a Pact difference', () => {
    const big = `{"pets":[${'{"id":1,"name":"Rex"},'.repeat(150_000)}{"id":2}]}`;
    expect(big.length).toBeGreaterThan(3_000_000);
    const long: ReportCase = {
      ...awkward,
      request: { method: 'POST', url: '/v1/pets', body: 'q'.repeat(BODY_LIMIT * 2) },
      response: { status: 200, body: big },
      mismatches: [{ type: 'BodyMismatch', path: '$', expected: 'e'.repeat(BODY_LIMIT + 1), actual: big, mismatch: 'differs' }],
    };
    const report = toCtrf([long], RUN) as {
      results: { tests: { extra: { request: { body: string }; response: { body: string }; mismatches: { expected: string; actual: string }[] } }[] };
    };
    const { extra } = report.results.tests[0] ?? { extra: undefined };
    expect(extra?.response.body).toBe(`${big.slice(0, BODY_LIMIT)}... (${big.length - BODY_LIMIT} more characters)`);
    expect(extra?.request.body).toBe(cutBody('q'.repeat(BODY_LIMIT * 2)));
    expect(extra?.mismatches[0]).toMatchObject({ expected: cutBody('e'.repeat(BODY_LIMIT + 1)), actual: extra?.response.body });
    expect(ctrfErrors(report)).toEqual([]);
    // Whole report: what JUnit writes of the same case, give or take the markup.
    expect(JSON.stringify(report).length).toBeLessThan(16 * BODY_LIMIT);
    expect(toJUnit([long], RUN).length).toBeLessThan(16 * BODY_LIMIT);
    expect(describeExchange(long)).toContain(extra?.response.body.split('\n')[0]);
  });
});

describe('Pact cases', () => {
  const interaction = (description: string): PactInteraction => ({
    consumer: 'web',
    description,
    providerStates: ['no pets exist'],
    request: { method: 'GET', url: '/v1/pets' },
  });

  it('take each verdict from the verifier: differences fail, a message alone is an error, no result carries the reason', () => {
    const cases = pactCases(
      [interaction('ok'), interaction('differs'), interaction('no state'), interaction('not run')],
      [
        { consumer: 'web', description: 'ok', result: 'OK', duration: '1s 20ms' },
        {
          consumer: 'web',
          description: 'differs',
          result: 'Error',
          mismatch: { type: 'mismatches', mismatches: [{ type: 'StatusMismatch', mismatch: 'expected 200 but was 500', expected: 200, actual: 500 }] },
        },
        {
          consumer: 'web',
          description: 'no state',
          result: 'Error',
          mismatch: { type: 'error', message: 'One or more of the setup state change handlers has failed' },
        },
      ],
      { status: 'error', message: 'the verifier reported no result for it' },
    );
    expect(cases.map((c) => [c.name, c.status, c.message])).toEqual([
      ['ok', 'passed', ''],
      ['differs', 'failed', 'expected 200 but was 500'],
      ['no state', 'error', 'One or more of the setup state change handlers has failed'],
      ['not run', 'error', 'the verifier reported no result for it'],
    ]);
    expect(cases[0]?.durationMs).toBe(1020);
    expect(describeExchange(cases[1] as ReportCase)).toContain('StatusMismatch: expected 200 but was 500 (200 -> 500)');
  });

  it("read the verifier's durations", () => {
    expect([parseDuration('97ms'), parseDuration('0s'), parseDuration('2m 1s'), parseDuration(undefined)]).toEqual([97, 0, 121_000, 0]);
  });
});

describe('--report values', () => {
  it('resolve paths against the working folder and keep their order', () => {
    const dir = tempDir('petstore-report-');
    expect(parseReportTargets(['ctrf=out.json', `junit=${dir}/out.xml`], dir)).toEqual([
      { format: 'ctrf', path: `${dir}/out.json`, force: false },
      { format: 'junit', path: `${dir}/out.xml`, force: false },
    ]);
    expect(parseReportTargets(undefined)).toEqual([]);
  });

  it('refuse a format that only looks like one', () => {
    expect(() => parseReportTargets(['toString=/tmp/x'])).toThrow("unknown format 'toString'");
    expect(() => parseReportTargets(['JUnit=/tmp/x'])).toThrow("unknown format 'JUnit'");
  });
});
