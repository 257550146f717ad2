/**
 * The API docs in real Chromium: every operation of both specs rendered,
 * nothing asked of another origin, "try it" answered by this sandbox,
 * getPet shown deprecated with its Sunset date, no serious accessibility
 * violation.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSpec } from '../../src/openapi/load-spec.js';
import { CONTROL_SPEC_FILE } from '../../src/config/paths.js';
import { KEY, startTestSandbox, type TestSandbox } from '../support/harness.js';
import { launch, screenshot, seriousViolations, watchedPage } from './support/browser.js';

let sb: TestSandbox;
let browser: Browser;
beforeAll(async () => {
  await import('../../web/build.js');
  sb = await startTestSandbox();
  browser = await launch();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await sb?.stop();
});

/** Swagger UI's block of an operation: its id is `operations-<tag>-<operationId>`. */
const block = (operationId: string) => `.opblock[id$="-${operationId}"]`;

describe('the API docs', { timeout: 120_000 }, () => {
  it.each([
    ['/docs', undefined, 'api-docs.png'],
    ['/docs/control', CONTROL_SPEC_FILE, 'control-docs.png'],
  ])('%s renders every operation of its spec, with no console error and no request leaving 127.0.0.1', async (path, file, shot) => {
    const w = await watchedPage(browser);
    await w.page.goto(`${sb.origin}${path}`);
    const ids = [...loadSpec(file).operations.keys()];
    expect(ids.length).toBeGreaterThan(2);
    for (const id of ids) await w.page.locator(block(id)).waitFor({ timeout: 30_000 });
    expect(await w.page.locator('.opblock').count()).toBe(ids.length);
    await screenshot(w.page, shot);
    expect(w.errors).toEqual([]);
    expect(w.outside).toEqual([]);
    await w.page.context().close();
  });

  it('shows getPet as deprecated, with its Sunset date', async () => {
    const w = await watchedPage(browser);
    await w.page.goto(`${sb.origin}/docs`);
    const getPet = w.page.locator(block('getPet'));
    await expect.poll(() => getPet.getAttribute('class'), { timeout: 30_000 }).toContain('opblock-deprecated');
    expect(await getPet.locator('.opblock-summary').innerText()).toContain('Sunset: Thu, 05 Dec 2030 00:00:00 GMT');
    await getPet.locator('.opblock-summary').click();
    // Opened, the block fills in stages: wait for its description, the last of what is checked.
    await expect.poll(() => getPet.innerText(), { timeout: 30_000 }).toContain('5 December 2030');
    const text = await getPet.innerText();
    expect(text).toContain('Deprecated');
    expect(text).toContain('Thu, 05 Dec 2030 00:00:00 GMT');
    await w.page.context().close();
  });

  it('"try it" on listPets sends the API key typed in the bar to this sandbox and shows its 200', async () => {
    const w = await watchedPage(browser);
    await w.page.goto(`${sb.origin}/docs`);
    const listPets = w.page.locator(block('listPets'));
    await listPets.waitFor({ timeout: 30_000 });
    await w.page.fill('#credential', KEY);
    await w.page.click('#credential-form button');
    await listPets.locator('.opblock-summary').click();
    const sent = w.page.waitForRequest((r) => r.url().startsWith(`${sb.origin}/v1/pets`), { timeout: 30_000 });
    await listPets.locator('button.execute').click();
    const request = await sent;
    expect(request.headers()['authorization']).toBe(`Bearer ${KEY}`);
    const status = listPets.locator('.live-responses-table tr.response .response-col_status').first();
    await expect.poll(() => status.innerText(), { timeout: 30_000 }).toContain('200');
    expect(w.errors).toEqual([]);
    expect(w.outside).toEqual([]);
    await w.page.context().close();
  });

  it.each(['/docs', '/docs/control'])('%s has no serious or critical accessibility violation (axe-core)', async (path) => {
    const w = await watchedPage(browser);
    await w.page.goto(`${sb.origin}${path}`);
    await w.page.locator('.opblock').first().waitFor({ timeout: 30_000 });
    expect(await seriousViolations(w.page)).toEqual([]);
    await w.page.context().close();
  });
});
