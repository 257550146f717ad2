/**
 * The same Dredd suite against the sandbox in example mode, where Prism
 * answers from the spec's examples: consumers get the same contract
 * whichever mode the sandbox runs in.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDredd, type DreddReport } from '../../contracts/dredd/run-dredd.js';
import { KEY, startTestSandbox, type TestSandbox } from '../support/harness.js';
import { ALL_TRANSACTIONS } from '../support/dredd-transactions.js';

let sb: TestSandbox;
let report: DreddReport;
beforeAll(async () => {
  sb = await startTestSandbox(['--mode', 'example']);
  report = await runDredd({ endpoint: sb.baseUrl, key: KEY, adminUrl: sb.origin, adminToken: sb.config.adminToken });
}, 120_000);
afterAll(() => sb.stop());

describe('Dredd against the sandbox in example mode', () => {
  it('is answered by Prism from the examples, not by the store', async () => {
    const health = await (await fetch(`${sb.origin}/__sandbox/health`)).json();
    expect(health).toMatchObject({ mode: 'example' });
    const exported = await fetch(`${sb.origin}/__sandbox/export`, { headers: { Authorization: `Bearer ${sb.config.adminToken}` } });
    const stored = ((await exported.json()) as { pets: unknown[] }).pets;
    const res = await sb.op('listPets', '/pets');
    // The store holds the 50 seeded pets (and the one the hooks added): the stateful answer would be its first 20.
    expect(stored.length).toBeGreaterThanOrEqual(50);
    expect(res.body).not.toEqual(stored.slice(0, 20));
  });

  it('runs all 8 transactions of the spec and every one passes', () => {
    expect(report.results.map((r) => r.name).sort()).toEqual([...ALL_TRANSACTIONS].sort());
    expect(report.results.filter((r) => r.status !== 'pass')).toEqual([]);
    expect(report.stats).toMatchObject({ tests: 8, passes: 8, failures: 0, errors: 0 });
  });
});
