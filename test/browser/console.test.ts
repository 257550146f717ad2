/**
 * The QA console in real Chromium, against a real sandbox: login, the live
 * journal, faults, reset, values rendered as text, accessibility. The
 * live-journal and XSS checks are also run against a deliberately broken
 * sandbox or console, where they must fail: a check that cannot fail
 * proves nothing.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSandbox, type TestSandbox } from '../support/harness.js';
import { launch, screenshot, seriousViolations, watchedPage, type WatchedPage } from './support/browser.js';
import { loggedIn as openConsole, shown } from './support/console-page.js';
import { buildUnsafeConsole } from './support/unsafe-console.js';

const ADMIN = 'admin-for-the-console';
const XSS = '<img src=x onerror=alert(1)>';

let sb: TestSandbox;
let browser: Browser;
beforeAll(async () => {
  await import('../../web/build.js');
  sb = await startTestSandbox(['--admin-token', ADMIN, '--count', '5']);
  browser = await launch();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await sb?.stop();
});

/** A page logged in to the console, its workspace shown. */
const loggedIn = (w?: WatchedPage): Promise<WatchedPage> => openConsole(browser, sb.origin, ADMIN, w);

const journalPaths = (page: Page) => page.locator('#journal-entries li summary .path').allInnerTexts();

/** The live-journal check: a /v1 request shows in the open console with no reload and no further control call. */
async function expectLiveEntry(w: WatchedPage, query: string, timeout: number): Promise<void> {
  const before = w.requests.length;
  const sent = await sb.call(`/pets?${query}`);
  expect(sent.status).toBe(200);
  await w.page.locator('#journal-entries li summary .path', { hasText: `/v1/pets?${query}` }).waitFor({ timeout });
  // Pushed down the stream already open: no reload, no polling.
  expect(w.requests.slice(before)).toEqual([]);
}

/** The XSS check: the name shows as its characters in the pets table and the journal, and no element or dialog comes of it. */
async function expectShownAsText(w: WatchedPage): Promise<void> {
  await w.page.click('#pets-form button');
  const cell = w.page.locator('#pets tbody td', { hasText: XSS });
  await cell.first().waitFor({ timeout: 10_000 });
  const entry = w.page.locator('#journal-entries li', { hasText: XSS }).first();
  await entry.locator('summary').click();
  expect(await entry.locator('pre').first().innerText()).toContain(`"name": "${XSS}"`);
  expect(await w.page.locator('#app img').count()).toBe(0);
  expect(w.dialogs).toEqual([]);
}

describe('the QA console', { timeout: 120_000 }, () => {
  it('logs in with the admin token only, keeps it in sessionStorage and out of every URL', async () => {
    const w = await watchedPage(browser);
    await w.page.goto(`${sb.origin}/__sandbox/ui`);
    await w.page.fill('#token', 'not-the-token');
    await w.page.click('#login-form button');
    await expect.poll(() => w.page.locator('#login-error').innerText(), { timeout: 10_000 }).toContain('not the admin token');
    expect(await w.page.locator('#app').isHidden()).toBe(true);
    await loggedIn(w);
    expect(await w.page.evaluate("sessionStorage.getItem('petstore-sandbox.admin-token')")).toBe(ADMIN);
    expect(await w.page.evaluate('localStorage.length')).toBe(0);
    expect(await w.page.context().cookies()).toEqual([]);
    expect(w.requests.filter((url) => url.includes(ADMIN))).toEqual([]);
    await w.page.reload();
    await shown(w.page);
    await w.page.click('#logout');
    expect(await w.page.evaluate('sessionStorage.length')).toBe(0);
    expect(w.errors.filter((e) => !e.includes('403'))).toEqual([]);
    expect(w.outside).toEqual([]);
    await w.page.context().close();
  });

  it('shows a request sent to /v1 in the live journal, pushed to the open page', async () => {
    const w = await loggedIn();
    await expectLiveEntry(w, 'limit=3', 10_000);
    expect(await journalPaths(w.page)).toContain('/v1/pets?limit=3');
    expect(w.errors).toEqual([]);
    await w.page.context().close();
  });

  it('the live-journal check fails when the sandbox does not push entries', async () => {
    const journal = sb.backend.journal;
    const follow = journal.follow.bind(journal);
    journal.follow = () => () => undefined;
    try {
      const w = await loggedIn();
      await expect(expectLiveEntry(w, 'limit=4', 3_000)).rejects.toThrow(/Timeout/);
      await w.page.context().close();
    } finally {
      journal.follow = follow;
    }
  });

  it('adds a fault from the form, and the next /v1 call fails as configured', async () => {
    const w = await loggedIn();
    await w.page.selectOption('#fault-operation', 'listPets');
    await w.page.selectOption('#fault-status', '503');
    await w.page.fill('#fault-count', '1');
    await w.page.click('#fault-form button[type=submit]');
    await w.page.locator('#faults-table tbody tr', { hasText: 'listPets' }).waitFor({ timeout: 10_000 });
    const failed = await sb.call('/pets');
    expect(failed.status).toBe(503);
    expect(failed.body).toMatchObject({ code: 'service_unavailable', status: 503 });
    expect((await sb.call('/pets')).status).toBe(200);
    await w.page.context().close();
  });

  it('resets through the form: seeded pets, then none', async () => {
    const w = await loggedIn();
    expect((await sb.call('/pets', { method: 'POST', json: { name: 'Extra', categoryId: 1 } })).status).toBe(201);
    await w.page.fill('#reset-seed', '7');
    await w.page.fill('#reset-count', '3');
    await w.page.click('#reset-form button');
    await expect.poll(() => w.page.locator('#data-status').innerText(), { timeout: 10_000 }).toBe('Reset: 3 pets, next id 4.');
    expect(((await sb.call('/pets')).body as unknown[]).length).toBe(3);
    await expect.poll(() => w.page.locator('#pets tbody tr').count(), { timeout: 10_000 }).toBe(3);
    await w.page.check('#reset-empty');
    await w.page.click('#reset-form button');
    await expect.poll(() => w.page.locator('#data-status').innerText(), { timeout: 10_000 }).toBe('Reset: 0 pets, next id 1.');
    expect((await sb.call('/pets')).body).toEqual([]);
    await w.page.context().close();
  });

  it('shows a pet named like an HTML tag as text, and runs nothing', async () => {
    const w = await loggedIn();
    expect((await sb.call('/pets', { method: 'POST', json: { name: XSS, categoryId: 1 } })).status).toBe(201);
    await expectShownAsText(w);
    expect(w.errors).toEqual([]);
    await screenshot(w.page, 'qa-console.png');
    await w.page.context().close();
  });

  it('the XSS check fails on a console that writes values as HTML (and the CSP still stops the script)', async () => {
    const unsafe = await buildUnsafeConsole();
    const w = await watchedPage(browser);
    await w.page.route('**/__sandbox/ui/assets/console.js', (route) => route.fulfill({ contentType: 'text/javascript', body: unsafe }));
    await loggedIn(w);
    await expect(expectShownAsText(w)).rejects.toThrow();
    expect(await w.page.locator('#app img').count()).toBeGreaterThan(0);
    expect(w.dialogs).toEqual([]);
    await w.page.context().close();
  });

  it('has no serious or critical accessibility violation (axe-core), logged out and in', async () => {
    const w = await watchedPage(browser);
    await w.page.goto(`${sb.origin}/__sandbox/ui`);
    expect(await seriousViolations(w.page)).toEqual([]);
    await loggedIn(w);
    await sb.call('/pets?limit=1');
    await w.page.locator('#journal-entries li').first().waitFor({ timeout: 10_000 });
    expect(await seriousViolations(w.page)).toEqual([]);
    await w.page.context().close();
  });

  it('badges an exchange the interface does not allow as not in spec, and says why; a documented answer stays spec-valid', async () => {
    const w = await loggedIn();
    expect((await sb.call('/pets?limit=4')).status).toBe(200);
    expect((await sb.call('/pets?refused=1', { method: 'DELETE' })).status).toBe(405);
    const entry = (query: string) => w.page.locator('#journal-entries li', { hasText: `/v1/pets?${query}` }).first();
    await entry('refused=1').waitFor({ timeout: 10_000 });
    expect(await entry('limit=4').locator('.badge').innerText()).toBe('spec-valid');
    const refused = entry('refused=1');
    expect(await refused.locator('.badge').innerText()).toBe('not in spec');
    expect(await refused.locator('.badge').getAttribute('title')).toMatch(/no operation of the spec matches the request; its 405/);
    await refused.locator('summary').click();
    expect(await refused.locator('pre.spec-issues').innerText()).toMatch(/its 405 is the sandbox's own answer/);
    expect(await seriousViolations(w.page)).toEqual([]);
    expect(w.errors).toEqual([]);
    await w.page.context().close();
  });
});
