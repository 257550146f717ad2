/**
 * The QA console keeps itself current from the live journal, without
 * polling and without a reload: a pet created through the API shows in the
 * Pets table, a fault's Applied count follows the requests it acts on. The
 * same check run against a sandbox that pushes no journal entries must
 * fail: the refresh comes from the stream, nothing else.
 */
import type { Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { seriousViolations, type WatchedPage } from './support/browser.js';
import { loggedIn } from './support/console-page.js';
import { consoleSandbox } from './support/console-sandbox.js';

const ADMIN = 'admin-for-the-live-console';

const ctx = consoleSandbox(ADMIN, ['--count', '3']);
afterEach(async () => {
  await ctx.control.call('clearFaults');
});

/** Marks the page's window: a reload would lose the mark. */
const mark = (page: Page) => page.evaluate('window.notReloaded = true');
const stillMarked = (page: Page) => page.evaluate('window.notReloaded === true');

/** The live-refresh check: a pet created through the API appears in the open console's Pets table, with no reload. */
async function expectPetShown(w: WatchedPage, name: string, timeout: number): Promise<void> {
  await mark(w.page);
  expect((await ctx.sb.call('/pets', { method: 'POST', json: { name, categoryId: 2 } })).status).toBe(201);
  await w.page.locator('#pets tbody td', { hasText: name }).waitFor({ timeout });
  expect(await stillMarked(w.page)).toBe(true);
}

describe('the QA console, live', { timeout: 120_000 }, () => {
  it('asks nothing while nothing happens: no polling', async () => {
    const w = await loggedIn(ctx.browser, ctx.sb.origin, ADMIN);
    // The streams stay open, so the network is never idle: wait for the views' first loads, then watch a quiet page.
    await expect.poll(() => w.page.locator('#unauthenticated-state').innerText(), { timeout: 10_000 }).toMatch(/^Following/);
    await expect.poll(() => w.page.locator('#fault-operation option').count(), { timeout: 10_000 }).toBeGreaterThan(0);
    await w.page.waitForTimeout(1_000);
    const before = w.requests.length;
    await w.page.waitForTimeout(2_500);
    expect(w.requests.slice(before)).toEqual([]);
    await w.page.context().close();
  });

  it('shows a pet created through the API in the Pets table and the counts, without a reload', async () => {
    const w = await loggedIn(ctx.browser, ctx.sb.origin, ADMIN);
    const count = async () => Number(/: (\d+) pets?,/.exec(await w.page.locator('#workspace-summary').innerText())?.[1]);
    const pets = await count();
    await expectPetShown(w, 'Live-Biscuit', 10_000);
    await expect.poll(count, { timeout: 10_000 }).toBe(pets + 1);
    const row = w.page.locator('#workspaces tbody tr').first();
    await expect.poll(() => row.locator('td').nth(1).innerText(), { timeout: 10_000 }).toBe(String(pets + 1));
    expect(w.errors).toEqual([]);
    await w.page.context().close();
  });

  it('the live-refresh check fails when the sandbox pushes no journal entries', async () => {
    const journal = ctx.sb.backend.journal;
    const follow = journal.follow.bind(journal);
    journal.follow = () => () => undefined;
    try {
      const w = await loggedIn(ctx.browser, ctx.sb.origin, ADMIN);
      await expect(expectPetShown(w, 'Live-Unseen', 3_000)).rejects.toThrow(/Timeout/);
      await w.page.context().close();
    } finally {
      journal.follow = follow;
    }
  });

  it("counts a fault's applications as they happen: its Applied cell follows the requests", async () => {
    const w = await loggedIn(ctx.browser, ctx.sb.origin, ADMIN);
    await w.page.selectOption('#fault-operation', 'getPet');
    await w.page.selectOption('#fault-status', '503');
    await w.page.click('#fault-form button[type=submit]');
    const applied = w.page.locator('#faults-table tbody tr', { hasText: 'getPet' }).locator('td').nth(6);
    await expect.poll(() => applied.innerText(), { timeout: 10_000 }).toBe('0');
    await mark(w.page);
    expect((await ctx.sb.call('/pets/1')).status).toBe(503);
    await expect.poll(() => applied.innerText(), { timeout: 10_000 }).toBe('1');
    // A burst: the journal's entries arrive together, the count catches up with all of them.
    await Promise.all([1, 2, 3].map(() => ctx.sb.call('/pets/1')));
    await expect.poll(() => applied.innerText(), { timeout: 10_000 }).toBe('4');
    expect(await stillMarked(w.page)).toBe(true);
    expect(await seriousViolations(w.page)).toEqual([]);
    expect(w.errors).toEqual([]);
    await w.page.context().close();
  });
});
