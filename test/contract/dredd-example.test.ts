/**
 * The same Dredd suite against the sandbox in example mode, where Prism
 * answers from the spec's examples: consumers get the same contract
 * whichever mode the sandbox runs in.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDredd, type DreddReport } from '../../contracts/dredd/run-dredd.js';
import { clientOf } from '../support/control-client.js';
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
    const control = clientOf(sb);
    expect(await control.call('getHealth')).toMatchObject({ mode: 'example' });
    const stored = (await control.call('exportWorkspace')).pets;
    const res = await sb.op('listPets', '/pets');
    // The store holds the 50 seeded pets (and the one the hooks added): the stateful answer would be its first 20.
    expect(stored.length).toBeGreaterThanOrEqual(50);
    expect(res.body).not.toEqual(stored.slice(0, 20));
  });

  it('runs all 9 transactions of the spec and every one passes', () => {
    expect(report.results.map((r) => r.name).sort()).toEqual([...ALL_TRANSACTIONS].sort());
    expect(report.results.filter((r) => r.status !== 'pass')).toEqual([]);
    expect(report.stats).toMatchObject({ tests: 9, passes: 9, failures: 0, errors: 0 });
  });
});
