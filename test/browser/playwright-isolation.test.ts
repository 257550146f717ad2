/**
 * `petstore-sandbox/playwright` keeps parallel workers apart: Playwright on
 * two workers, run twice in a row, each run against one sandbox of its own;
 * each test adds a pet through the example's page and records what the
 * page listed. Afterwards each worker's journal, read with the admin token,
 * holds only its own worker's requests, and no list a page showed or the
 * sandbox answered holds a pet of the other worker. The same check, on a run
 * whose workers share one key, finds what they shared: it can fail.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, type PetstoreSandbox } from '../../src/library/create-sandbox.js';
import { ADMIN_TOKEN_VARIABLE, URL_VARIABLE, workerKey } from '../../src/playwright/env.js';
import { bundlePackage, runPlaywright, writeProject, type Reported } from './support/playwright-project.js';

const TESTS = 6;
const WORKERS = [0, 1];

/** Each test adds a pet named after its worker's slot, and notes what the page then listed; `shared` puts every worker on worker 0's key. */
const spec = (shared: boolean) => `import { test as base, expect } from 'petstore-sandbox/playwright';
const test = ${shared ? "base.extend({ sandboxKey: [async ({}, use) => use('playwright-worker-0'), { scope: 'worker' }] })" : 'base'};
for (let n = 0; n < ${TESTS}; n++) {
  test('adds pet ' + n, async ({ sandbox, page }, testInfo) => {
    const name = 'w' + testInfo.parallelIndex + '-t' + n;
    await sandbox.route(page, { api: 'https://app.example/api/v1' });
    await page.goto('/');
    await page.getByLabel('Name').fill(name);
    await page.getByRole('button', { name: 'Add pet' }).click();
    await expect(page.getByRole('listitem').filter({ hasText: name })).toHaveCount(1);
    const shown = await page.getByRole('listitem').allTextContents();
    testInfo.annotations.push({ type: 'shown', description: JSON.stringify(shown) });
  });
}
`;

/** The worker slot a pet's name says created it (`w1-t3`: 1); undefined for a seeded pet. */
const creator = (name: unknown): number | undefined => {
  const match = typeof name === 'string' ? /^w(\d+)-t\d+$/.exec(name) : null;
  return match ? Number(match[1]) : undefined;
};

/** The names in a journaled body: a created pet's, or each listed pet's. */
const namesIn = (body: unknown): unknown[] => (Array.isArray(body) ? body : [body]).map((pet) => (pet as { name?: unknown } | null)?.name);

interface Evidence {
  /** Each slot's journal, read with the admin token. */
  journals: Map<number, { method: string; path: string; requestBody: unknown; responseBody: unknown }[]>;
  tests: Reported[];
}

/** What a test's page listed once its pet was added (noted by the spec). */
const shownBy = (result: Reported['result']): string[] => JSON.parse(result.annotations.find((a) => a.type === 'shown')?.description ?? '[]') as string[];

/** Everything one worker saw of another: requests in its journal, pets in its answers and on its pages. */
function shared({ journals, tests }: Evidence): string[] {
  const found: string[] = [];
  for (const [slot, entries] of journals) {
    for (const entry of entries) {
      for (const name of [...namesIn(entry.requestBody), ...namesIn(entry.responseBody)]) {
        const by = creator(name);
        if (by !== undefined && by !== slot) found.push(`worker ${slot}'s journal: ${entry.method} ${entry.path} with ${String(name)}`);
      }
    }
  }
  for (const { title, result } of tests) {
    for (const name of shownBy(result).filter((n) => creator(n) !== undefined && creator(n) !== result.parallelIndex)) {
      found.push(`worker ${result.parallelIndex}'s page (${title}) listed ${name}`);
    }
  }
  return found;
}

/** One Playwright run against a sandbox of its own (started here, its admin token kept here); the journals read after it. */
async function run(dir: string): Promise<Evidence & { output: string; code: number | null }> {
  const sandbox: PetstoreSandbox = await createSandbox({ apiKeys: ['sandbox-key', ...WORKERS.map(workerKey)] });
  try {
    const url = await sandbox.listen();
    const { code, output, tests } = await runPlaywright(dir, { [URL_VARIABLE]: url, [ADMIN_TOKEN_VARIABLE]: sandbox.adminToken });
    const journals = new Map(
      await Promise.all(WORKERS.map(async (slot) => [slot, (await sandbox.workspace(workerKey(slot)).journal.read()).entries] as const)),
    );
    return { code, output, tests, journals };
  } finally {
    await sandbox.close();
  }
}

describe('petstore-sandbox/playwright on two workers', { timeout: 300_000 }, () => {
  let home: string;
  beforeAll(async () => {
    home = await bundlePackage('playwright-isolation');
  }, 120_000);

  it.each([1, 2])('run %i: no worker sees a request or a pet of the other, in the journals or on the pages', async (n) => {
    const evidence = await run(writeProject(home, `isolated-${n}`, { 'pets.spec.js': spec(false) }));
    expect(evidence.code, evidence.output).toBe(0);
    expect(evidence.tests.map((t) => t.result.status)).toEqual(Array(TESTS).fill('passed'));
    expect(shared(evidence)).toEqual([]);
    // Both workers ran tests, each journal holds the pets its worker added, each page listed its own: the check above saw something.
    const bySlot = WORKERS.map((slot) => evidence.tests.filter((t) => t.result.parallelIndex === slot).length);
    expect(
      bySlot.every((count) => count > 0),
      `tests per worker: ${bySlot.join(', ')}`,
    ).toBe(true);
    for (const slot of WORKERS) {
      const added = (evidence.journals.get(slot) ?? []).filter((e) => e.method === 'POST').flatMap((e) => namesIn(e.requestBody));
      expect(added, `worker ${slot}`).toHaveLength(bySlot[slot] as number);
    }
    for (const { title, result } of evidence.tests) expect(shownBy(result).map(creator), title).toContain(result.parallelIndex);
  });

  it('finds what the workers shared when both use one key', async () => {
    const evidence = await run(writeProject(home, 'shared', { 'pets.spec.js': spec(true) }));
    expect(evidence.code, evidence.output).toBe(0);
    expect(evidence.journals.get(1)).toEqual([]);
    expect(shared(evidence)).toContainEqual(expect.stringMatching(/^worker 0's journal: POST \/v1\/pets with w1-t\d$/));
  });
});
