/**
 * The console's API coverage panel in real Chromium, against a real
 * sandbox driven by the example consumer client: the table of operations
 * × documented statuses shows the exact counts the control plane reports,
 * the deprecated operation's calls and Sunset, and follows "Refresh".
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPetStoreClient, PetStoreError } from '../../contracts/consumer/pet-store-client.js';
import { KEY, startTestSandbox, type TestSandbox } from '../support/harness.js';
import { launch, screenshot, seriousViolations } from './support/browser.js';
import { loggedIn } from './support/console-page.js';

const ADMIN = 'admin-for-the-coverage-panel';

let sb: TestSandbox;
let browser: Browser;
beforeAll(async () => {
  await import('../../web/build.js');
  sb = await startTestSandbox(['--admin-token', ADMIN, '--count', '5', '--journal-size', '2']);
  browser = await launch();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await sb?.stop();
});

/** The panel's table as text: the header row, then each operation's row, cells joined by '|'. */
const tableText = (page: Page) =>
  page.locator('#coverage-table tr').evaluateAll((rows) => rows.map((r) => [...r.children].map((c) => (c.textContent ?? '').trim()).join('|')));

describe('the console coverage panel', { timeout: 120_000 }, () => {
  it('shows the counts of a consumer run by operation and documented status, and refreshes on demand', async () => {
    const consumer = createPetStoreClient({ baseUrl: `${sb.origin}/v1`, apiKey: KEY });
    await consumer.listPets();
    const rex = await consumer.createPet({ name: 'Rex', categoryId: 1 });
    await consumer.getPet(rex.id);
    await consumer.getPet(rex.id);
    await expect(consumer.getPet(999_999)).rejects.toBeInstanceOf(PetStoreError);
    expect((await sb.call('/nowhere')).status).toBe(404);

    const w = await loggedIn(browser, sb.origin, ADMIN);
    const { page } = w;
    await expect
      .poll(() => page.locator('#coverage-state').innerText(), { timeout: 30_000 })
      .toBe('4 of 9 documented answers exercised (44.4%), from 6 requests.');
    expect(await tableText(page)).toEqual([
      'Operation|Request|200|201|400|401|404|Undocumented',
      'listPets|GET /v1/pets|1|—|0|0|—|',
      'createPet|POST /v1/pets|—|1|0|0|—|',
      'getPetdeprecated|GET /v1/pets/{petId}|2|—|—|0|1|',
    ]);
    expect(await page.locator('#coverage-table td.unexercised').count()).toBe(5);
    expect(await page.locator('#coverage-outside li').allInnerTexts()).toEqual([
      'Requests that matched no operation: 1 (404: 1)',
      'getPet: 3 calls, removal announced for 2030-12-05 (Sunset: Thu, 05 Dec 2030 00:00:00 GMT)',
    ]);
    await screenshot(page, 'console-coverage.png');
    expect(await seriousViolations(page)).toEqual([]);

    await consumer.listPets();
    await expect(consumer.listPets({ limit: 0 })).rejects.toBeInstanceOf(PetStoreError);
    await page.click('#coverage-refresh');
    await expect
      .poll(() => page.locator('#coverage-state').innerText(), { timeout: 10_000 })
      .toBe('5 of 9 documented answers exercised (55.5%), from 8 requests.');
    expect((await tableText(page))[1]).toBe('listPets|GET /v1/pets|2|—|1|0|—|');
    expect(w.errors).toEqual([]);
    await page.context().close();
  });
});
