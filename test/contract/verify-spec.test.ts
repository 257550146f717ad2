/**
 * `npm run verify -- --spec FILE ...` as a user runs it: a sandbox it
 * starts for the two example specs passes every documented answer of both,
 * item paths on items that exist, with a pact of the /api/v2 API verified
 * and the reports naming each API; a deployment that drifted from its spec
 * (its prices became texts) fails, the broken operations named; bad usage
 * is refused before anything runs.
 */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { createSandbox, type PetstoreSandbox } from '../../src/index.js';
import { tempDir } from '../support/harness.js';
import { INVENTORY, PETSTORE_11 } from '../support/own-spec.js';
import { ctrfErrors, junitErrors } from '../support/report-schemas.js';
import { verify } from '../support/verify-run.js';

const fixture = (name: string) => fileURLToPath(new URL(`fixtures/${name}`, import.meta.url));
const SPECS = ['--spec', 'test/specs/petstore-1.1.yaml', '--spec', 'test/specs/inventory-v2.yaml'];

const dir = tempDir('petstore-verify-spec-');
let drifted: PetstoreSandbox | undefined;
afterAll(async () => {
  await drifted?.close();
  rmSync(dir, { recursive: true, force: true });
});

interface CtrfTest {
  name: string;
  status: string;
  suite: string[];
  extra?: { request?: { method: string; url: string } };
}

describe('npm run verify -- --spec', () => {
  it('passes a sandbox it starts for two specs: every answer of both, on items that exist, a pact of /api/v2, each API named', async () => {
    const ctrf = join(dir, 'specs.json');
    const junit = join(dir, 'specs.xml');
    const pacts = ['--pacts', fixture('spec-pacts')];
    const { code, out } = await verify(...SPECS, ...pacts, '--report', `ctrf=${ctrf}`, '--report', `junit=${junit}`);
    expect(out).toMatch(/Verifying a sandbox started here, serving 2 specs, at http:\/\/127\.0\.0\.1:\d+/);
    expect(out).toContain('API Inventory 2.0.0 (test/specs/inventory-v2.yaml) at http://127.0.0.1:');
    expect(out).toContain('request body drawn from the schema (the spec has no example): createItem (POST /items)');
    expect(out).toContain('PASS  Dredd Pet Store 1.1.0: 21 of 21 transactions passed');
    expect(out).toContain('PASS  Dredd Inventory 2.0.0: 23 of 23 transactions passed');
    expect(out).toContain('PASS  Pact: 2 interactions of inventory-web verified');
    expect(out).toContain('INFO  Coverage Pet Store 1.1.0 (test/specs/petstore-1.1.yaml): 21 of 21 documented answers exercised (100%)');
    // The one answer not counted in the key's workspace: the open health check (security: []) has a workspace of its own.
    expect(out).toContain('INFO  Coverage Inventory 2.0.0 (test/specs/inventory-v2.yaml): 22 of 23 documented answers exercised (95.6%)');
    expect(out).toContain('RESULT: PASS');
    expect(code, out).toBe(0);

    const report = JSON.parse(readFileSync(ctrf, 'utf8')) as { results: { tests: CtrfTest[]; extra: { coverage: { apis: unknown[] } } } };
    expect(ctrfErrors(report)).toEqual([]);
    const tests = report.results.tests;
    expect(new Set(tests.map((t) => t.suite.join(' / ')))).toEqual(
      new Set(['Dredd / Pet Store 1.1.0 (test/specs/petstore-1.1.yaml)', 'Dredd / Inventory 2.0.0 (test/specs/inventory-v2.yaml)', 'Pact / inventory-web']),
    );
    // Item paths were asked of items that exist: a UUID of a listed item, never Dredd's placeholder or a missing id.
    const sent = (name: string) => tests.find((t) => t.name === name)?.extra?.request;
    const replaced = sent('/items/{itemId} > Replace an item > 200 > application/json');
    const removed = sent('/items/{itemId} > Remove an item > 204');
    expect(replaced?.url).toMatch(/\/api\/v2\/items\/[0-9a-f-]{36}$/);
    expect(removed?.method).toBe('DELETE');
    expect(tests.every((t) => t.status === 'passed')).toBe(true);
    expect(report.results.extra.coverage.apis).toHaveLength(2);
    // The inventory's key goes in X-Api-Key, which reports do not know as a credential: verify hides it there too.
    expect(readFileSync(ctrf, 'utf8')).not.toContain('sandbox-key');
    expect(readFileSync(ctrf, 'utf8')).toContain('"X-Api-Key": "<redacted>"');
    const xml = readFileSync(junit, 'utf8');
    expect(xml).not.toContain('sandbox-key');
    expect(junitErrors(xml)).toEqual([]);
    expect(xml).toContain('<testsuite name="Dredd: Inventory 2.0.0 (test/specs/inventory-v2.yaml)"');
    expect(xml).toContain('<property name="api-coverage" value="22 of 23 documented answers exercised (95.6%)"/>');
  }, 240_000);

  it('fails a deployment that drifted from its spec, naming the broken operations', async () => {
    drifted = await createSandbox({ spec: fixture('inventory-v2-drifted.yaml') });
    const origin = await drifted.listen(0);
    const { code, out } = await verify('--spec', INVENTORY, '--target', origin, '--key', 'sandbox-key');
    expect(out).toContain(`Verifying ${origin} (1 spec)`);
    expect(out).toContain('Changes: Dredd creates, replaces and removes items with --key; they stay.');
    expect(out).toMatch(
      /FAIL {4}\/items > List items > 200 > application\/json\n.*listItems 200: body does not match the response schema: \d+\/price must be number/,
    );
    // The body the spec describes (a number for a price) is refused by the drifted deployment.
    expect(out).toMatch(/FAIL {4}\/items > Add an item > 201 > application\/json\n.*Expected status code '201', but got '400'/);
    expect(out).toMatch(/FAIL {2}Dredd Inventory 2\.0\.0: \d+ of 23 transactions passed, \d+ failed/);
    expect(out).toContain('RESULT: FAIL');
    expect(code, out).toBe(1);
    // createItem's one-time 401, refused first with a 400 there, does not stay to refuse the key's next create.
    const admin = { Authorization: 'Bearer sandbox-admin', 'X-Sandbox-Key': 'sandbox-key' };
    const faults = (await (await fetch(`${origin}/__sandbox/faults`, { headers: admin })).json()) as { faults: unknown[] };
    expect(faults.faults).toEqual([]);
  }, 240_000);

  it('skips with its reason what no request can bring about, and sends a key the spec puts in the query', async () => {
    const ctrf = join(dir, 'notes.json');
    const { code, out } = await verify('--spec', fixture('notes-api.yaml'), '--report', `ctrf=${ctrf}`);
    expect(out).toContain('SKIP    /notes > Add a note > 409 > application/json\n          no request from outside makes addNote answer 409');
    expect(out).toContain(
      'SKIP    /notes/{noteId} > One note > 401 > application/json\n          getNote is open (security: []): no request is refused for its key',
    );
    // One shared response object for 400 and 401 still makes two transactions, each asking its own status.
    expect(out).toContain('PASS    /notes > Add a note > 400 > application/json');
    expect(out).toContain('PASS  Dredd Notes 0.3.0: 7 of 9 transactions passed, 2 skipped');
    expect(code, out).toBe(0);
    const tests = (JSON.parse(readFileSync(ctrf, 'utf8')) as { results: { tests: (CtrfTest & { message?: string })[] } }).results.tests;
    expect(tests.find((t) => t.name === '/notes > Add a note > 409 > application/json')).toMatchObject({
      status: 'skipped',
      message: 'no request from outside makes addNote answer 409',
    });
    expect(tests.find((t) => t.name === '/notes > List notes > 200 > application/json')?.extra?.request?.url).toMatch(/\/api\/notes\/notes\?key=<redacted>$/);
  }, 120_000);

  it('refuses bad usage before anything runs, and names a spec it cannot read', async () => {
    const noKey = await verify('--spec', PETSTORE_11, '--target', 'http://127.0.0.1:9');
    expect(noKey.out).toContain('verify: --key is required with --target');
    expect(noKey.code).toBe(2);
    const twice = await verify('--spec', PETSTORE_11, '--spec', PETSTORE_11);
    expect(twice.out).toContain('give each spec once');
    expect(twice.code).toBe(2);
    const missing = await verify('--spec', join(dir, 'no-such.yaml'));
    expect(missing.out).toMatch(/FAIL {2}Specs: cannot read the spec .*no-such\.yaml/);
    expect(missing.out).not.toContain('Dredd');
    expect(missing.code).toBe(1);
  }, 120_000);
});
