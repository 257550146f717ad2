/**
 * Dredd runs every transaction of spec/openapi.yaml against a real stateful
 * sandbox, with the project's hooks creating each response's condition and
 * checking each body against the spec.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDredd, type DreddReport } from '../../contracts/dredd/run-dredd.js';
import { KEY, startTestSandbox, type TestSandbox } from '../support/harness.js';
import { ALL_TRANSACTIONS } from '../support/dredd-transactions.js';

interface JournalEntry {
  method: string;
  path: string;
  operationId: string | null;
  status: number;
}

let sb: TestSandbox;
let report: DreddReport;
let journal: JournalEntry[];
let pets: { id: number; name: string }[];

const admin = async (path: string) => {
  const res = await fetch(`${sb.origin}/__sandbox${path}`, { headers: { Authorization: `Bearer ${sb.config.adminToken}` } });
  expect(res.status).toBe(200);
  return res.json() as Promise<Record<string, unknown>>;
};

beforeAll(async () => {
  sb = await startTestSandbox();
  for (const path of ['/journal', '/journal/unauthenticated']) await fetch(`${sb.origin}/__sandbox${path}`, { method: 'DELETE', headers: { Authorization: `Bearer ${sb.config.adminToken}` } });
  report = await runDredd({ endpoint: sb.baseUrl, key: KEY, adminUrl: sb.origin, adminToken: sb.config.adminToken });
  // The 401 transactions are journaled apart from the workspace's: no valid key, no workspace.
  journal = [...((await admin('/journal')).entries as JournalEntry[]), ...((await admin('/journal/unauthenticated')).entries as JournalEntry[])];
  pets = (await admin('/export')).pets as { id: number; name: string }[];
}, 60_000);
afterAll(() => sb.stop());

const answered = (operationId: string, status: number) => journal.filter((e) => e.operationId === operationId && e.status === status);

describe('Dredd against the stateful sandbox', () => {
  it('runs all 8 transactions of the spec and every one passes', () => {
    expect(report.results.map((r) => r.name).sort()).toEqual([...ALL_TRANSACTIONS].sort());
    expect(report.results.filter((r) => r.status !== 'pass')).toEqual([]);
    expect(report.stats).toMatchObject({ tests: 8, passes: 8, failures: 0, errors: 0, skipped: 0 });
    expect(report.ok).toBe(true);
  });

  it('got each documented status for real, not by coincidence', () => {
    for (const [op, status] of [['listPets', 200], ['listPets', 401], ['createPet', 201], ['createPet', 400], ['createPet', 401], ['getPet', 200], ['getPet', 401], ['getPet', 404]] as const) {
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
