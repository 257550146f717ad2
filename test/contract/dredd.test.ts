/**
 * Dredd runs every transaction of spec/openapi.yaml against a real stateful
 * sandbox, with the project's hooks creating each response's condition and
 * checking each body against the spec.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDredd, type DreddReport } from '../../contracts/dredd/run-dredd.js';
import type { JournalEntry } from '../../src/store/journal/types.js';
import { clientOf } from '../support/control-client.js';
import { KEY, startTestSandbox, type TestSandbox } from '../support/harness.js';
import { ALL_TRANSACTIONS } from '../support/dredd-transactions.js';

let sb: TestSandbox;
let report: DreddReport;
let journal: JournalEntry[];
let pets: { id: number; name: string }[];

beforeAll(async () => {
  sb = await startTestSandbox();
  const control = clientOf(sb);
  await control.call('clearJournal');
  await control.call('clearUnauthenticatedJournal');
  report = await runDredd({ endpoint: sb.baseUrl, key: KEY, adminUrl: sb.origin, adminToken: sb.config.adminToken });
  // The 401 transactions are journaled apart from the workspace's: no valid key, no workspace.
  journal = [...(await control.call('readJournal')).entries, ...(await control.call('readUnauthenticatedJournal')).entries];
  pets = (await control.call('exportWorkspace')).pets;
}, 60_000);
afterAll(() => sb.stop());

const answered = (operationId: string, status: number) => journal.filter((e) => e.operationId === operationId && e.status === status);

describe('Dredd against the stateful sandbox', () => {
  it('runs all 9 transactions of the spec and every one passes', () => {
    expect(report.results.map((r) => r.name).sort()).toEqual([...ALL_TRANSACTIONS].sort());
    expect(report.results.filter((r) => r.status !== 'pass')).toEqual([]);
    expect(report.stats).toMatchObject({ tests: 9, passes: 9, failures: 0, errors: 0, skipped: 0 });
    expect(report.ok).toBe(true);
  });

  it('got each documented status for real, not by coincidence', () => {
    for (const [op, status] of [
      ['listPets', 200],
      ['listPets', 400],
      ['listPets', 401],
      ['createPet', 201],
      ['createPet', 400],
      ['createPet', 401],
      ['getPet', 200],
      ['getPet', 401],
      ['getPet', 404],
    ] as const) {
      expect(answered(op, status), `${op} ${status}`).toHaveLength(1);
    }
  });

  it('asked getPet for a pet it had loaded through the control plane, and for 404 an id that does not exist', () => {
    const [found] = answered('getPet', 200);
    const [missing] = answered('getPet', 404);
    const loaded = pets.find((p) => p.name === 'Dredd');
    expect(loaded, 'the pet the hooks loaded with POST /__sandbox/load').toBeDefined();
    expect(found?.path).toBe(`/v1/pets/${loaded?.id}`);
    const missingId = Number(missing?.path.split('/').pop());
    expect(pets.some((p) => p.id === missingId)).toBe(false);
  });
});
