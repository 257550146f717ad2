/**
 * The docs page and the QA console of a sandbox serving two specs
 * (`--spec petstore-1.1.yaml --spec inventory-v2.yaml`), in real Chromium:
 * /docs lists both APIs and "try it" on /api/v2 is answered 200 with the
 * key prefilled in its own scheme (`X-Api-Key`); the console offers a fault
 * on an /api/v2 operation, adds it and shows it applied, and lists the
 * inventory's items read through the API.
 */
import { describe, expect, it } from 'vitest';
import { KEY } from '../support/harness.js';
import { INVENTORY, PETSTORE_11 } from '../support/own-spec.js';
import { seriousViolations, watchedPage } from './support/browser.js';
import { loggedIn } from './support/console-page.js';
import { consoleSandbox } from './support/console-sandbox.js';

const ADMIN = 'admin-for-the-served-apis';

const ctx = consoleSandbox(ADMIN, ['--spec', PETSTORE_11, '--spec', INVENTORY, '--count', '3']);

/** Swagger UI's block of an operation: its id is `operations-<tag>-<operationId>`. */
const block = (operationId: string) => `.opblock[id$="-${operationId}"]`;

describe('the docs page with two specs', { timeout: 120_000 }, () => {
  it('lists both APIs, and "try it" on /api/v2 sends the prefilled X-Api-Key and is answered 200', async () => {
    const { origin } = ctx.sb;
    const w = await watchedPage(ctx.browser);
    await w.page.goto(`${origin}/docs`);
    await w.page.locator(block('listOrders')).waitFor({ timeout: 30_000 });
    const options = w.page.locator('#api-select option');
    await expect.poll(() => options.allInnerTexts(), { timeout: 30_000 }).toEqual(['Pet Store 1.1.0 (/v1)', 'Inventory 2.0.0 (/api/v2)']);
    await w.page.selectOption('#api-select', { label: 'Inventory 2.0.0 (/api/v2)' });
    const listItems = w.page.locator(block('listItems'));
    await listItems.waitFor({ timeout: 30_000 });
    expect(await w.page.locator(block('listOrders')).count()).toBe(0);
    // The selector in the bar, and the inventory's operations (a PATCH among them), before any is opened.
    expect(await seriousViolations(w.page)).toEqual([]);
    await expect.poll(() => w.page.locator('.auth-wrapper .btn.authorize').getAttribute('class'), { timeout: 30_000 }).toMatch(/\blocked\b/);
    await listItems.locator('.opblock-summary').click();
    const sent = w.page.waitForRequest((r) => r.url().startsWith(`${origin}/api/v2/items`), { timeout: 30_000 });
    await listItems.locator('button.execute').click();
    const request = await sent;
    expect(request.headers()['x-api-key']).toBe(KEY);
    const status = listItems.locator('.live-responses-table tr.response .response-col_status').first();
    await expect.poll(() => status.innerText(), { timeout: 30_000 }).toContain('200');
    expect(new URL(w.page.url()).searchParams.get('api')).toBe('/api/v2');
    expect(w.errors).toEqual([]);
    expect(w.outside).toEqual([]);
    await w.page.context().close();
  });

  it('opens the API named by ?api=, authorized with the key as a bearer token where the spec takes one', async () => {
    const w = await watchedPage(ctx.browser);
    await w.page.goto(`${ctx.sb.origin}/docs?api=/v1`);
    const listOrders = w.page.locator(block('listOrders'));
    await listOrders.waitFor({ timeout: 30_000 });
    expect(await w.page.locator('#api-select').inputValue()).toBe('/docs/apis/0/openapi.json');
    await listOrders.locator('.opblock-summary').click();
    const sent = w.page.waitForRequest((r) => r.url().startsWith(`${ctx.sb.origin}/v1/store/orders`), { timeout: 30_000 });
    await listOrders.locator('button.execute').click();
    expect((await sent).headers()['authorization']).toBe(`Bearer ${KEY}`);
    await w.page.context().close();
  });
});

describe('the QA console with two specs', { timeout: 120_000 }, () => {
  it('adds a fault on an /api/v2 operation from the served operations, and shows it applied', async () => {
    const { origin } = ctx.sb;
    const w = await loggedIn(ctx.browser, origin, ADMIN);
    const option = w.page.locator('#fault-operation option[value="createItem"]');
    await expect.poll(() => option.innerText(), { timeout: 30_000 }).toBe('createItem (POST /api/v2/items)');
    await w.page.selectOption('#fault-operation', 'createItem');
    await w.page.selectOption('#fault-status', '503');
    await w.page.click('#fault-form button[type=submit]');
    await expect.poll(() => w.page.locator('#faults-status').innerText(), { timeout: 30_000 }).toBe('Fault 1 added on createItem.');
    const applied = w.page.locator('#faults-table tbody tr', { hasText: 'createItem' }).locator('td').nth(6);
    await expect.poll(() => applied.innerText(), { timeout: 30_000 }).toBe('0');
    const create = () =>
      fetch(`${origin}/api/v2/items`, {
        method: 'POST',
        headers: { 'x-api-key': KEY, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'bolt', sku: 'BLT-0001', category: 'parts' }),
      });
    expect((await create()).status).toBe(503);
    // Applied once, shown without a reload: the journal's entry refreshes the faults' list.
    await expect.poll(() => applied.innerText(), { timeout: 30_000 }).toBe('1');
    const entry = w.page.locator('#journal-entries .entry summary').first();
    await expect.poll(() => entry.innerText(), { timeout: 30_000 }).toMatch(/POST\s+\/api\/v2\/items\s+503/);
    expect(w.errors).toEqual([]);
    await w.page.context().close();
  });

  it("lists a served API's items per collection, read through the API with the workspace's key", async () => {
    const w = await loggedIn(ctx.browser, ctx.sb.origin, ADMIN);
    const items = w.page.locator('#items');
    await expect.poll(() => items.isVisible(), { timeout: 30_000 }).toBe(true);
    const labels = await w.page.locator('#items-collection option').allInnerTexts();
    expect(labels).toEqual(['Pet Store 1.1.0: /v1/pets', 'Pet Store 1.1.0: /v1/store/orders', 'Inventory 2.0.0: /api/v2/items']);
    await w.page.selectOption('#items-collection', { label: 'Inventory 2.0.0: /api/v2/items' });
    const caption = w.page.locator('#items-caption');
    await expect.poll(() => caption.innerText(), { timeout: 30_000 }).toMatch(/^Inventory 2\.0\.0: \/api\/v2\/items: \d+ items?/);
    const listed = (await (await fetch(`${ctx.sb.origin}/api/v2/items`, { headers: { 'x-api-key': KEY } })).json()) as { id: string }[];
    expect(listed.length).toBeGreaterThan(0);
    const ids = await w.page.locator('#items-table tbody tr td:first-child').allInnerTexts();
    expect(ids).toEqual(listed.map((item) => item.id));
    expect(await w.page.locator('#items-table thead th').first().innerText()).toBe('id');
    expect(await seriousViolations(w.page)).toEqual([]);
    await w.page.context().close();
  });
});
