/**
 * A test that fails under `petstore-sandbox/playwright` carries its
 * worker's journal in the report: a project with a passing test and one
 * that fails on purpose, on the sandbox the global setup starts (and stops
 * when the run ends), read back from Playwright's JSON reporter.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { bundlePackage, runPlaywright, writeProject, type PlaywrightRun } from './support/playwright-project.js';

const SPEC = `import { test, expect } from 'petstore-sandbox/playwright';
test.beforeEach(async ({ sandbox, page }, testInfo) => {
  testInfo.annotations.push({ type: 'sandbox', description: sandbox.url });
  await sandbox.route(page, { api: 'https://app.example/api/v1' });
});
test('lists the pets', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('status')).toHaveText(/^\\d+ pets$/);
});
test('fails on purpose', async ({ page }) => {
  await page.goto('/');
  await page.getByLabel('Name').fill('Ghost');
  await page.getByRole('button', { name: 'Add pet' }).click();
  await expect(page.getByRole('listitem').filter({ hasText: 'Ghost' })).toHaveCount(2, { timeout: 2000 });
});
`;

const byTitle = (run: PlaywrightRun, title: string) => {
  const found = run.tests.find((t) => t.title === title);
  if (!found) throw new Error(`no test "${title}" in the report:\n${run.output}`);
  return found.result;
};

describe("a failed test's report", { timeout: 300_000 }, () => {
  let run: PlaywrightRun;
  beforeAll(async () => {
    const home = await bundlePackage('playwright-journal');
    run = await runPlaywright(writeProject(home, 'failing', { 'failing.spec.js': SPEC }));
  }, 300_000);

  it('holds the worker journal, with what the failed test sent', () => {
    expect(run.code, run.output).toBe(1);
    const failed = byTitle(run, 'fails on purpose');
    expect(failed.status).toBe('failed');
    const attached = failed.attachments.find((a) => a.name === 'sandbox-journal.json');
    expect(attached?.contentType).toBe('application/json');
    const journal = JSON.parse(Buffer.from(attached?.body ?? '', 'base64').toString('utf8')) as {
      entries: { method: string; path: string; status: number; requestBody: unknown }[];
    };
    expect(journal.entries).toContainEqual(
      expect.objectContaining({ method: 'POST', path: '/v1/pets', status: 201, requestBody: expect.objectContaining({ name: 'Ghost' }) }),
    );
  });

  it('is not attached to a test that passed', () => {
    const passed = byTitle(run, 'lists the pets');
    expect(passed.status).toBe('passed');
    expect(passed.attachments.map((a) => a.name)).not.toContain('sandbox-journal.json');
  });

  it("comes from the global setup's own sandbox, which the run stopped when it ended", async () => {
    const url = byTitle(run, 'lists the pets').annotations.find((a) => a.type === 'sandbox')?.description;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    await expect(fetch(`${url}/livez`)).rejects.toThrow();
  });
});
