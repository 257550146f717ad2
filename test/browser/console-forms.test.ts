/**
 * The QA console's forms and its views of what went wrong: the fault form
 * offers what the sandbox accepts (read from it), errors read as sentences,
 * the requests without a valid key have a view, the login page says where
 * the token comes from, and the forms sit on a grid with each label beside
 * its input (measured, and shot for a person to look at).
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DEFAULT_ADMIN_TOKEN, OPTIONS } from '../../src/config/load.js';
import { screenshot, seriousViolations, watchedPage } from './support/browser.js';
import { loggedIn } from './support/console-page.js';
import { consoleSandbox } from './support/console-sandbox.js';

const ADMIN = 'admin-for-the-console-forms';

const ctx = consoleSandbox(ADMIN, ['--count', '4']);

/** The statuses the fault form offers for an operation (its "none" aside). */
async function offered(page: Page, operationId: string): Promise<string[]> {
  await page.selectOption('#fault-operation', operationId);
  return (await page.locator('#fault-status option').evaluateAll((options) => options.map((o) => o.getAttribute('value') ?? o.textContent))).filter(
    (v) => v !== '',
  ) as string[];
}

/** Where each label of a form sits against its input: a problem line for every label not right beside its input, on its row, and for inputs not in one column. */
async function misplacedLabels(page: Page, form: string): Promise<string[]> {
  const pairs = await page.locator(`${form} label[for]`).evaluateAll((labels) =>
    labels.map((label) => {
      const input = label.ownerDocument.getElementById(label.getAttribute('for') ?? '');
      const l = label.getBoundingClientRect();
      const i = input?.getBoundingClientRect();
      return { name: label.textContent?.trim() ?? '', l: [l.left, l.right, l.top + l.height / 2], i: i ? [i.left, i.right, i.top + i.height / 2] : undefined };
    }),
  );
  expect(pairs.length).toBeGreaterThan(0);
  // On a grid, the inputs of a form start in one column.
  const columns = new Set(pairs.map(({ i }) => Math.round(i?.[0] ?? 0)));
  const column = columns.size === 1 ? [] : [`inputs start at ${[...columns].join(', ')}: not one column`];
  return column.concat(
    pairs.flatMap(({ name, l, i }) => {
      if (!i) return [`${name}: no input`];
      const [, right = 0, middle = 0] = l;
      const [left = 0, , inputMiddle = 0] = i;
      const beside = left >= right && left - right <= 32;
      const onItsRow = Math.abs(middle - inputMiddle) <= 6;
      return beside && onItsRow ? [] : [`${name}: label ends at ${right}, input starts at ${left}; middles ${middle} and ${inputMiddle}`];
    }),
  );
}

describe('the QA console: forms and views', { timeout: 120_000 }, () => {
  it('offers, for each operation, exactly the fault statuses the sandbox lists for it: no 404 for listPets', async () => {
    const w = await loggedIn(ctx.browser, ctx.sb.origin, ADMIN);
    const { operations } = await ctx.control.call('listOperations');
    expect(operations.map((o) => o.operationId)).toEqual(['listPets', 'createPet', 'getPet']);
    for (const op of operations) expect([op.operationId, await offered(w.page, op.operationId)]).toEqual([op.operationId, op.faultStatuses.map(String)]);
    expect(await offered(w.page, 'listPets')).not.toContain('404');
    expect(await offered(w.page, 'getPet')).toContain('404');
    expect(w.errors).toEqual([]);
    await w.page.context().close();
  });

  it('takes those choices from the server, not from the page: another list from /operations is what it offers', async () => {
    const w = await watchedPage(ctx.browser);
    const changed = { operations: [{ operationId: 'listPets', method: 'GET', path: '/v1/pets', faultStatuses: [418, 503] }] };
    await w.page.route('**/__sandbox/operations', (route) => route.fulfill({ contentType: 'application/json', body: JSON.stringify(changed) }));
    await loggedIn(ctx.browser, ctx.sb.origin, ADMIN, w);
    await expect.poll(() => w.page.locator('#fault-operation option').allInnerTexts(), { timeout: 10_000 }).toEqual(['listPets (GET /v1/pets)']);
    expect(await offered(w.page, 'listPets')).toEqual(['418', '503']);
    await w.page.context().close();
  });

  it('says what went wrong as a sentence from the Error body, not as an operation and its route', async () => {
    const w = await loggedIn(ctx.browser, ctx.sb.origin, ADMIN);
    // Neither a status nor a latency: a fault the sandbox refuses.
    await w.page.selectOption('#fault-operation', 'listPets');
    await w.page.selectOption('#fault-status', '');
    await w.page.click('#fault-form button[type=submit]');
    const status = w.page.locator('#faults-status');
    await expect.poll(() => status.innerText(), { timeout: 10_000 }).toMatch(/^Could not add the fault: /);
    expect(await status.innerText()).toBe('Could not add the fault: A fault needs "latencyMs" and/or "status".');
    expect(await status.getAttribute('class')).toContain('error');
    expect(await ctx.control.call('listFaults')).toMatchObject({ faults: [] });
    await w.page.context().close();
  });

  it('shows the requests without a valid key live, with the key each sent masked, never whole', async () => {
    const w = await loggedIn(ctx.browser, ctx.sb.origin, ADMIN);
    await expect.poll(() => w.page.locator('#unauthenticated-state').innerText(), { timeout: 10_000 }).toMatch(/^Following/);
    const wrongKey = 'wrong-key-for-the-view';
    expect((await ctx.sb.call('/pets?limit=7', { key: wrongKey })).status).toBe(401);
    expect((await ctx.sb.call('/pets?limit=8', { key: null })).status).toBe(401);
    const row = (query: string) => w.page.locator('#unauthenticated-table tbody tr', { hasText: `GET /v1/pets?${query}` });
    await row('limit=8').waitFor({ timeout: 10_000 });
    expect(await row('limit=7').locator('td').allInnerTexts()).toEqual([
      expect.stringMatching(/^\d\d:\d\d:\d\d\.\d{3}$/),
      'GET /v1/pets?limit=7',
      'Bearer wron…(22 characters)',
      '401',
      'Invalid API key.',
    ]);
    expect(await row('limit=8').locator('td').nth(2).innerText()).toBe('none');
    expect(await w.page.content()).not.toContain(wrongKey);
    expect(await seriousViolations(w.page)).toEqual([]);
    await w.page.context().close();
  });

  it('says on the login page where the admin token comes from, with the flags and variables the sandbox reads', async () => {
    const w = await watchedPage(ctx.browser);
    await w.page.goto(`${ctx.sb.origin}/__sandbox/ui`);
    const hint = await w.page.locator('#token-hint').innerText();
    const admin = OPTIONS['admin-token'];
    const file = OPTIONS['admin-token-file'];
    for (const name of ['--admin-token ', admin.env, '--admin-token-file', file.env, DEFAULT_ADMIN_TOKEN, 'start-up line']) expect(hint).toContain(name);
    expect(await w.page.locator('#token').getAttribute('aria-describedby')).toBe('token-hint');
    expect(await seriousViolations(w.page)).toEqual([]);
    await screenshot(w.page, 'qa-console-login.png');
    await w.page.context().close();
  });

  it('lays its forms out on a grid, each label beside its input on its row', async () => {
    // A fault in the list, for the picture.
    await ctx.control.call('addFault', { body: { operationId: 'getPet', status: 503, latencyMs: { min: 200, max: 800 }, count: 5 } });
    const w = await loggedIn(ctx.browser, ctx.sb.origin, ADMIN);
    await expect.poll(() => w.page.locator('#fault-operation option').count(), { timeout: 10_000 }).toBeGreaterThan(0);
    for (const form of ['#workspace-form', '#pets-form', '#reset-form', '#load-form', '#upload-form', '#mode-form', '#fault-form'])
      expect([form, await misplacedLabels(w.page, form)]).toEqual([form, []]);
    // Data and Faults side by side, the refused requests above them.
    await w.page.locator('#faults').scrollIntoViewIfNeeded();
    await screenshot(w.page, 'qa-console-forms.png');
    expect(await seriousViolations(w.page)).toEqual([]);
    await w.page.context().close();
    await ctx.control.call('clearFaults');
  });
});
