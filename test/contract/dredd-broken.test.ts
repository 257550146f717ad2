/**
 * The same Dredd suite against a Pet Store that breaks the contract
 * (test/support/broken-server.ts): the run must fail, on exactly
 * the broken transactions, each for its reason. Run once more without the
 * spec-check hook, it shows what Dredd 14 alone does not see.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDredd, type DreddReport } from '../../contracts/dredd/run-dredd.js';
import { KEY } from '../support/harness.js';
import { startBrokenServer, type BrokenServer } from '../support/broken-server.js';
import { ALL_TRANSACTIONS } from '../support/dredd-transactions.js';

const [LIST_200, LIST_400, LIST_401, CREATE_201, CREATE_400, CREATE_401, GET_200, GET_401, GET_404] = ALL_TRANSACTIONS;

let broken: BrokenServer;
let checked: DreddReport;
let dreddOnly: DreddReport;
beforeAll(async () => {
  broken = await startBrokenServer();
  checked = await runDredd({ endpoint: broken.baseUrl, key: KEY });
  dreddOnly = await runDredd({ endpoint: broken.baseUrl, key: KEY, validateBodies: false });
}, 60_000);
afterAll(() => broken.close());

const outcome = (report: DreddReport, name: string) => {
  const found = report.results.filter((r) => r.name === name);
  expect(found, name).toHaveLength(1);
  return found[0] as { status: string; message: string };
};

describe('Dredd against a broken Pet Store', () => {
  it('fails the run: 6 of 9 transactions fail, the 3 correct ones pass', () => {
    expect(checked.ok).toBe(false);
    expect(checked.stats).toMatchObject({ tests: 9, failures: 6, passes: 3, errors: 0 });
    expect(outcome(checked, LIST_400).status).toBe('pass');
    expect(outcome(checked, GET_200).status).toBe('pass');
    expect(outcome(checked, GET_401).status).toBe('pass');
  });

  it.each([
    ['a wrong type', LIST_200, /listPets 200: body does not match the response schema: .*id must be integer/],
    ['an Error whose status is not the HTTP status', LIST_401, /Error status 403 differs from HTTP status 401/],
    ['a missing required field', CREATE_201, /createPet 201: body does not match the response schema: .*required property 'id'/],
    ['an undocumented status', CREATE_400, /status 422 is not documented/],
    ['an HTML error page', CREATE_401, /body is not JSON \(Content-Type 'text\/html'\)/],
  ])('reports %s with the spec check', (_kind, name, message) => {
    const result = outcome(checked, name);
    expect(result.status).toBe('fail');
    expect(result.message).toMatch(message);
  });

  it('reports a wrong status through Dredd itself', () => {
    const result = outcome(checked, GET_404);
    expect(result.status).toBe('fail');
    expect(result.message).toMatch(/Expected status code '404', but got '200'/);
  });

  it('misses the wrong type and the lying Error status without the spec check', () => {
    expect(dreddOnly.stats).toMatchObject({ tests: 9, failures: 4, passes: 5 });
    expect(outcome(dreddOnly, LIST_200).status).toBe('pass');
    expect(outcome(dreddOnly, LIST_401).status).toBe('pass');
  });
});
