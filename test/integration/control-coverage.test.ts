/**
 * API coverage (`GET /__sandbox/coverage`, docs/coverage.md): the example
 * consumer client (contracts/consumer) runs a scripted session against a
 * real sandbox whose journal keeps 3 entries, and the report counts every
 * request exactly, in JSON, Markdown and JUnit, on the run's store
 * (PETSTORE_TEST_STORE: file, memory, postgres).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPetStoreClient, PetStoreError, type PetStoreClient } from '../../contracts/consumer/pet-store-client.js';
import type { ControlResult } from '../../src/control/routes.js';
import { startControlSandbox, type Control } from '../support/control-client.js';
import { runCli } from '../support/spawn.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir, type TestSandbox } from '../support/harness.js';

type Coverage = ControlResult<'readCoverage'>;

let sb: TestSandbox;
let ctl: Control;
let workspaceA: string;
const SUNSET = 'Thu, 05 Dec 2030 00:00:00 GMT';

/** An answer the client turns into an error: its status. */
const statusOf = (promise: Promise<unknown>) =>
  promise.then(
    () => 'resolved',
    (error: unknown) => (error instanceof PetStoreError ? error.status : error),
  );

/** The consumer's scripted run with key-a: 9 requests, 6 of the 9 documented answers, one undocumented status, one unmatched request. */
async function consumerRun(consumer: PetStoreClient): Promise<void> {
  await consumer.listPets();
  expect(await statusOf(consumer.listPets({ limit: 0 }))).toBe(400);
  const rex = await consumer.createPet({ name: 'Rex', categoryId: 1 });
  expect(await statusOf(consumer.createPet({ name: 'Rex' } as never))).toBe(400);
  await consumer.getPet(rex.id);
  await consumer.getPet(rex.id);
  expect(await statusOf(consumer.getPet(999_999))).toBe(404);
  expect((await ctl('POST', '/faults', { key: 'key-a', json: { operationId: 'listPets', status: 503, count: 1 } })).status).toBe(201);
  expect(await statusOf(consumer.listPets())).toBe(503);
  expect((await sb.call('/nowhere', { key: 'key-a' })).status).toBe(404);
}

beforeAll(async () => {
  ({ sb, ctl } = await startControlSandbox(['--api-keys', 'key-a,key-b', '--journal-size', '3']));
  const baseUrl = `${sb.origin}/v1`;
  await consumerRun(createPetStoreClient({ baseUrl, apiKey: 'key-a' }));
  // Another workspace's request, and one without a key (the journal of unauthenticated requests): in the admin's view of all only.
  await createPetStoreClient({ baseUrl, apiKey: 'key-b' }).listPets();
  expect(await statusOf(createPetStoreClient({ baseUrl }).listPets())).toBe(401);
  workspaceA = ((await ctl('GET', '/journal', { key: 'key-a' })).body as { workspace: string }).workspace;
});
afterAll(() => sb.stop());

const A_OPERATIONS: Coverage['operations'] = [
  {
    operationId: 'listPets',
    method: 'GET',
    path: '/v1/pets',
    deprecated: false,
    requests: 3,
    statuses: [
      { status: 200, count: 1 },
      { status: 400, count: 1 },
      { status: 401, count: 0 },
    ],
    undocumented: [{ status: 503, count: 1 }],
  },
  {
    operationId: 'createPet',
    method: 'POST',
    path: '/v1/pets',
    deprecated: false,
    requests: 2,
    statuses: [
      { status: 201, count: 1 },
      { status: 400, count: 1 },
      { status: 401, count: 0 },
    ],
    undocumented: [],
  },
  {
    operationId: 'getPet',
    method: 'GET',
    path: '/v1/pets/{petId}',
    deprecated: true,
    requests: 3,
    statuses: [
      { status: 200, count: 2 },
      { status: 401, count: 0 },
      { status: 404, count: 1 },
    ],
    undocumented: [],
  },
];

const A_MARKDOWN = (workspace: string, threshold = '') => `## API coverage: 6 of 9 documented answers exercised (66.6%)

${threshold}Workspace \`${workspace}\`: 9 requests counted.

| Operation | Request | Status | Requests |
|---|---|---:|---:|
| \`listPets\` | GET /v1/pets | 200 | 1 |
| \`listPets\` | GET /v1/pets | 400 | 1 |
| \`listPets\` | GET /v1/pets | 401 | **0** |
| \`createPet\` | POST /v1/pets | 201 | 1 |
| \`createPet\` | POST /v1/pets | 400 | 1 |
| \`createPet\` | POST /v1/pets | 401 | **0** |
| \`getPet\` (deprecated) | GET /v1/pets/{petId} | 200 | 2 |
| \`getPet\` (deprecated) | GET /v1/pets/{petId} | 401 | **0** |
| \`getPet\` (deprecated) | GET /v1/pets/{petId} | 404 | 1 |

### Outside the interface

- Undocumented statuses: \`listPets\` 503: 1
- Requests that matched no operation: 1 (404: 1)

### Deprecated operations

- \`getPet\` (GET /v1/pets/{petId}): 3 calls; its removal is announced for 2030-12-05 (\`Sunset: ${SUNSET}\`)
`;

/** The JUnit test cases of key-a's run, without and with a threshold (never-exercised answers fail, or are skipped). */
function junitCases(unexercised: 'failure' | 'skipped'): string[] {
  const cases: [string, string, number][] = [
    ['listPets', 'GET /v1/pets 200', 1],
    ['listPets', 'GET /v1/pets 400', 1],
    ['listPets', 'GET /v1/pets 401', 0],
    ['createPet', 'POST /v1/pets 201', 1],
    ['createPet', 'POST /v1/pets 400', 1],
    ['createPet', 'POST /v1/pets 401', 0],
    ['getPet', 'GET /v1/pets/{petId} 200', 2],
    ['getPet', 'GET /v1/pets/{petId} 401', 0],
    ['getPet', 'GET /v1/pets/{petId} 404', 1],
  ];
  return cases.map(([op, name, n]) => {
    const head = `    <testcase classname="${op}" name="${name}" time="0">`;
    if (n > 0) return `${head}<system-out>${n === 1 ? '1 request' : `${n} requests`}</system-out></testcase>`;
    if (unexercised === 'skipped') return `${head}<skipped message="never exercised"/></testcase>`;
    return `${head}<failure type="not-exercised" message="never exercised">No request got ${name}.</failure></testcase>`;
  });
}

const junit = (counts: string, cases: string[]) =>
  [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="API coverage" ${counts} time="0">`,
    `  <testsuite name="API coverage" ${counts} time="0">`,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');

describe('API coverage of a scripted consumer run', () => {
  it('counts every request exactly in JSON, whatever the journal (3 entries) evicted', async () => {
    const journal = await ctl('GET', '/journal', { key: 'key-a' });
    expect(journal.body.entries).toHaveLength(3);
    const res = await ctl('GET', '/coverage', { key: 'key-a' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(res.body).toEqual({
      scope: 'workspace',
      workspace: workspaceA,
      requests: 9,
      documented: { answers: 9, exercised: 6, percent: 66.6 },
      operations: A_OPERATIONS,
      unmatched: { requests: 1, statuses: [{ status: 404, count: 1 }] },
      deprecated: [{ operationId: 'getPet', method: 'GET', path: '/v1/pets/{petId}', calls: 3, sunset: SUNSET, sunsetDate: '2030-12-05' }],
    });
  });

  it('writes the same counts as Markdown, by format or by Accept', async () => {
    const byQuery = await ctl('GET', '/coverage?format=markdown', { key: 'key-a' });
    expect(byQuery.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    expect(byQuery.text).toBe(A_MARKDOWN(workspaceA));
    const byAccept = await ctl('GET', '/coverage', { key: 'key-a', headers: { accept: 'application/json;q=0.5, text/markdown' } });
    expect(byAccept.text).toBe(A_MARKDOWN(workspaceA));
    const met = await ctl('GET', '/coverage?format=markdown&fail-under=66.6', { key: 'key-a' });
    expect(met.text).toBe(A_MARKDOWN(workspaceA, 'Threshold: at least 66.6%: **met**.\n\n'));
  });

  it('writes JUnit: a case per documented answer, failing when never exercised; with fail-under the threshold case decides', async () => {
    const plain = await ctl('GET', '/coverage?format=junit', { key: 'key-a' });
    expect(plain.headers.get('content-type')).toBe('application/xml; charset=utf-8');
    expect(plain.text).toBe(junit('tests="9" failures="3" errors="0" skipped="0"', junitCases('failure')));
    const why = '6 of 9 documented answers exercised (66.6%), threshold';
    const under = await ctl('GET', '/coverage?format=junit&fail-under=70', { key: 'key-a' });
    expect(under.text).toBe(
      junit('tests="10" failures="1" errors="0" skipped="3"', [
        ...junitCases('skipped'),
        `    <testcase classname="coverage" name="threshold" time="0"><failure type="under-threshold" message="${why} 70%">${why} 70%</failure></testcase>`,
      ]),
    );
    const met = await ctl('GET', '/coverage?fail-under=66', { key: 'key-a', headers: { accept: 'application/xml' } });
    expect(met.text).toBe(
      junit('tests="10" failures="0" errors="0" skipped="3"', [
        ...junitCases('skipped'),
        `    <testcase classname="coverage" name="threshold" time="0"><system-out>${why} 66%</system-out></testcase>`,
      ]),
    );
    expect((await ctl('GET', '/coverage?fail-under=66.7', { key: 'key-a' })).body.threshold).toEqual({ failUnder: 66.7, met: false });
  });

  it('sums every workspace and the unauthenticated requests for the admin (all=true)', async () => {
    const res = await ctl('GET', '/coverage?all=true');
    const body = res.body as Coverage;
    expect(body.scope).toBe('all');
    expect(body.workspace).toBeUndefined();
    expect(body.requests).toBe(11);
    expect(body.documented).toEqual({ answers: 9, exercised: 7, percent: 77.7 });
    expect(body.operations[0]?.statuses).toEqual([
      { status: 200, count: 2 },
      { status: 400, count: 1 },
      { status: 401, count: 1 },
    ]);
    expect(body.operations.slice(1)).toEqual(A_OPERATIONS.slice(1));
    expect((await ctl('GET', '/coverage', { key: 'key-b' })).body.requests).toBe(1);
  });

  it('opens a workspace to its own API key, never all of them', async () => {
    const own = await ctl('GET', '/coverage', { token: 'key-a' });
    expect(own.status).toBe(200);
    expect(own.body.workspace).toBe(workspaceA);
    expect(own.body.requests).toBe(9);
    expect((await ctl('GET', '/coverage?all=true', { token: 'key-a' })).status).toBe(403);
    expect((await ctl('GET', '/coverage?all=true', { key: 'key-a' })).status).toBe(400);
    expect((await ctl('GET', '/coverage?format=yaml', { key: 'key-a' })).status).toBe(400);
    expect((await ctl('GET', '/coverage?fail-under=101', { key: 'key-a' })).status).toBe(400);
    expect((await ctl('GET', '/coverage', { token: null })).status).toBe(401);
  });

  it('is the QA command coverage: the same report, a file, and exit 1 under --fail-under', { timeout: 60_000 }, async () => {
    const env = { PETSTORE_ADMIN_TOKEN: sb.config.adminToken };
    const cli = (...args: string[]) => runCli(['coverage', '--url', sb.origin, '--key', 'key-a', ...args], env);
    const xmlFile = join(tempDir('petstore-coverage-'), 'coverage.xml');
    const [markdown, under, json, usage] = await Promise.all([
      cli('--format', 'markdown', '--fail-under', '66'),
      cli('--format', 'junit', '--fail-under', '70', xmlFile),
      cli(),
      cli('--format', 'html'),
    ]);
    expect([markdown.code, markdown.stderr, markdown.stdout]).toEqual([0, '', A_MARKDOWN(workspaceA, 'Threshold: at least 66%: **met**.\n\n')]);
    expect(under.code).toBe(1);
    expect(under.stderr).toBe('petstore-sandbox coverage: 6 of 9 documented answers exercised (66.6%), under --fail-under 70%.\n');
    expect(under.stdout).toBe('');
    expect(readFileSync(xmlFile, 'utf8')).toBe((await ctl('GET', '/coverage?format=junit&fail-under=70', { key: 'key-a' })).text);
    expect(JSON.parse(json.stdout)).toEqual((await ctl('GET', '/coverage', { key: 'key-a' })).body);
    expect([usage.code, usage.stderr]).toEqual([2, expect.stringContaining("--format must be one of json, markdown, junit, got 'html'.")]);
  });

  it('counts requests answered together (on PostgreSQL, written in one batch) one by one', async () => {
    const consumer = createPetStoreClient({ baseUrl: `${sb.origin}/v1`, apiKey: 'key-b' });
    await Promise.all(Array.from({ length: 30 }, () => consumer.listPets({ limit: 1 })));
    const b = (await ctl('GET', '/coverage', { key: 'key-b' })).body as Coverage;
    expect(b.requests).toBe(31);
    expect(b.operations[0]?.statuses[0]).toEqual({ status: 200, count: 31 });
  });

  it('keeps its counts through a reset, as the journal; clears them with the journal, of that workspace only', async () => {
    expect((await ctl('POST', '/reset', { key: 'key-a' })).status).toBe(200);
    expect((await ctl('GET', '/coverage', { key: 'key-a' })).body.requests).toBe(9);
    expect((await ctl('DELETE', '/journal', { key: 'key-a' })).status).toBe(200);
    const cleared = (await ctl('GET', '/coverage', { key: 'key-a' })).body as Coverage;
    expect(cleared.requests).toBe(0);
    expect(cleared.documented).toEqual({ answers: 9, exercised: 0, percent: 0 });
    expect(cleared.operations.flatMap((op) => op.statuses.map((s) => s.count))).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0]);
    expect((await ctl('GET', '/coverage', { key: 'key-b' })).body.requests).toBe(31);
    expect((await ctl('DELETE', '/journal/unauthenticated')).status).toBe(200);
    expect((await ctl('GET', '/coverage?all=true')).body.requests).toBe(31);
    // Counting starts again from the clear.
    await createPetStoreClient({ baseUrl: `${sb.origin}/v1`, apiKey: 'key-a' }).listPets();
    expect((await ctl('GET', '/coverage', { key: 'key-a' })).body.operations[0].statuses[0]).toEqual({ status: 200, count: 1 });
  });
});

describe('API coverage within --journal-memory', () => {
  it('counts every request of a journal still holding an entry; a journal the budget empties goes with its counts', async () => {
    const small = await startControlSandbox(['--api-keys', 'key-a,key-b', '--journal-memory', '8192']);
    try {
      const baseUrl = `${small.sb.origin}/v1`;
      await createPetStoreClient({ baseUrl, apiKey: 'key-a' }).listPets({ limit: 1 });
      // Each of b's creates is journaled with its body: a few of them fill the budget, and a's only entry goes first.
      const b = createPetStoreClient({ baseUrl, apiKey: 'key-b' });
      for (let i = 0; i < 40; i++) await b.createPet({ name: `Pet ${'x'.repeat(200)} ${i}`, categoryId: 1 });
      const journal = (await small.ctl('GET', '/journal', { key: 'key-b' })).body as { entries: unknown[]; memory: { evicted: number } };
      expect(journal.entries.length).toBeLessThan(40);
      expect(journal.memory.evicted).toBeGreaterThan(0);
      const countsB = (await small.ctl('GET', '/coverage', { key: 'key-b' })).body as Coverage;
      expect([countsB.requests, countsB.operations[1]?.statuses[0]]).toEqual([40, { status: 201, count: 40 }]);
      expect((await small.ctl('GET', '/journal', { key: 'key-a' })).body.entries).toEqual([]);
      expect((await small.ctl('GET', '/coverage', { key: 'key-a' })).body.requests).toBe(0);
    } finally {
      await small.sb.stop();
    }
  });
});
