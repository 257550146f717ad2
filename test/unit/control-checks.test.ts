/**
 * The control plane's requests are checked against spec/sandbox-control.yaml
 * and its routes come from one table checked against that spec: without
 * HTTP, on the real spec and on edited copies of it.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../src/kernel/errors.js';
import type { Spec } from '../../src/openapi/spec.js';
import { loadSpec } from '../../src/openapi/load-spec.js';
import { checkRoutes, createControlChecks, formatControlIssues, type ControlRequestParts } from '../../src/control/request-checks.js';
import { loadControlSpec } from '../../src/server/control-spec.js';
import { CONTROL_ROUTES, routePath } from '../../src/control/routes.js';
import { CONTROL_SPEC_FILE } from '../../src/config/paths.js';

const dir = mkdtempSync(join(tmpdir(), 'petstore-control-spec-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A copy of the control spec with one edit, named as the original so its reference to ./openapi.yaml still resolves. */
function editedSpec(edit: (yaml: string) => string): Spec {
  const sub = mkdtempSync(join(dir, 'copy-'));
  const file = join(sub, 'sandbox-control.yaml');
  const yaml = readFileSync(CONTROL_SPEC_FILE, 'utf8');
  const edited = edit(yaml);
  expect(edited).not.toBe(yaml);
  writeFileSync(file, edited);
  return loadSpec(file);
}

const interfaceSpec = loadSpec();
const request = (parts: Partial<ControlRequestParts>): ControlRequestParts => ({ headers: {}, query: {}, params: {}, body: undefined, ...parts });

/** What a check throws, as an Error body. */
function refusal(run: () => unknown): { status: number; code: string; message: string } {
  try {
    run();
  } catch (error) {
    if (error instanceof ApiError) return error.toBody();
    throw error;
  }
  throw new Error('the request was accepted');
}

describe('the route table', () => {
  it('matches spec/sandbox-control.yaml: every operation, its method, path, success status, credential and workspace header', () => {
    expect(() => loadControlSpec()).not.toThrow();
    expect(Object.keys(CONTROL_ROUTES).sort()).toEqual([...loadSpec(CONTROL_SPEC_FILE).operations.keys()].sort());
  });

  it.each([
    ['a path', (y: string) => y.replace('  /fixtures:\n', '  /fixture-sets:\n'), /listFixtures: the table has path \/fixtures, the spec \/fixture-sets/],
    [
      'a success status',
      (y: string) =>
        y.replace(
          "      responses:\n        '201':\n          description: The fault was added.",
          "      responses:\n        '200':\n          description: The fault was added.",
        ),
      /addFault: the table has status 201, the spec 200/,
    ],
    [
      'a new operation',
      (y: string) =>
        y.replace(
          '  /fixtures:\n    get:\n',
          "  /fixtures:\n    delete:\n      operationId: dropFixtures\n      responses:\n        '200':\n          description: Gone.\n    get:\n",
        ),
      /dropFixtures has no route/,
    ],
  ])('refuses a spec that changed %s, naming the operation', (_what, edit, message) => {
    expect(() => checkRoutes(editedSpec(edit))).toThrow(message);
  });

  it('fills in path parameters, encoded', () => {
    expect(routePath(CONTROL_ROUTES.deleteFault, { faultId: 3 })).toBe('/faults/3');
    expect(routePath(CONTROL_ROUTES.deleteFault, { faultId: 'a/b' })).toBe('/faults/a%2Fb');
    expect(() => routePath(CONTROL_ROUTES.deleteFault)).toThrow(/faultId/);
  });
});

describe('request checks', () => {
  const check = createControlChecks(loadControlSpec(), [interfaceSpec]);

  it('passes a valid request, with the query coerced to its type and the key as sent', () => {
    const checked = check('readJournal', request({ headers: { 'x-sandbox-key': 'key-a' }, query: { limit: '5' } }));
    expect(checked).toEqual({ key: 'key-a', query: { limit: 5 }, path: {}, body: undefined });
  });

  it('answers header, query and body issues together as one 400', () => {
    const error = refusal(() => check('resetWorkspace', request({ headers: { 'x-sandbox-key': 'bad key!' }, body: { count: 'ten' } })));
    expect(error).toMatchObject({ status: 400, code: 'invalid_request' });
    expect(error.message).toMatch(/^Header 'X-Sandbox-Key' must match pattern .* "count" must be integer\.$/);
  });

  it('answers a path parameter that names nothing with 404', () => {
    expect(refusal(() => check('deleteFault', request({ params: { faultId: 'abc' } })))).toMatchObject({ status: 404, code: 'not_found' });
  });

  it("checks a fixture set's pets against the interface's Pet schema, naming the record", () => {
    const error = refusal(() =>
      check(
        'loadFixture',
        request({
          body: {
            pets: [
              { id: 1, name: 'Rex', categoryId: 1 },
              { id: 2, categoryId: 1 },
            ],
          },
        }),
      ),
    );
    expect(error.message).toBe("Nothing was loaded. Record 1 field 'name' is required.");
  });

  it('reads OpenAPI 3.0 exclusive bounds: a rate of 0 is refused, any rate above is not', () => {
    expect(refusal(() => check('addFault', request({ body: { operationId: 'listPets', status: 500, rate: 0 } }))).message).toBe('"rate" must be > 0.');
    expect(check('addFault', request({ body: { operationId: 'listPets', status: 500, rate: 0.001 } })).body).toMatchObject({ rate: 0.001 });
  });

  it('follows the spec: a constraint changed in spec/sandbox-control.yaml changes the answer, with no code changed', () => {
    const edited = createControlChecks(
      editedSpec((y) =>
        y.replace(
          '          minimum: 0\n          maximum: 1000000\n          description: Pets to generate',
          '          minimum: 0\n          maximum: 10\n          description: Pets to generate',
        ),
      ),
      [interfaceSpec],
    );
    const body = { count: 11 };
    expect(check('resetWorkspace', request({ body })).body).toEqual(body);
    expect(refusal(() => edited('resetWorkspace', request({ body }))).message).toBe('"count" must be <= 10.');
  });
});

describe('issue wording', () => {
  it.each([
    [{ in: 'body', name: '', message: 'must be object' }, 'The request body must be a JSON object.'],
    [{ in: 'body', name: 'generate/seed', message: 'must be >= 0' }, '"generate.seed" must be >= 0.'],
    [{ in: 'body', name: 'pets/3', message: 'must be object' }, 'Nothing was loaded. Record 3 must be object.'],
    [{ in: 'query', name: 'limit', message: 'must be integer' }, "Query parameter 'limit' must be integer."],
  ])('%j reads "%s"', (issue, text) => {
    expect(formatControlIssues([issue])).toBe(text);
  });
});
