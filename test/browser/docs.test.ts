/**
 * The API docs in real Chromium: every operation of both specs rendered,
 * nothing asked of another origin, "try it" answered by this sandbox,
 * getPet shown deprecated with its Sunset date, no serious accessibility
 * violation.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSpec } from '../../src/openapi/load-spec.js';
import { CONTROL_SPEC_FILE } from '../../src/config/paths.js';
import { KEY, startTestSandbox, tempDir, type TestSandbox } from '../support/harness.js';
import { launch, screenshot, seriousViolations, watchedPage, type WatchedPage } from './support/browser.js';

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

/**
 * Opens /docs and executes listPets without authorizing first, as a
 * newcomer does; waits for its 200 and returns the Authorization it sent.
 */
async function tryListPets(w: WatchedPage, origin: string): Promise<string | undefined> {
  await w.page.goto(`${origin}/docs`);
  const listPets = w.page.locator(block('listPets'));
  await listPets.waitFor({ timeout: 30_000 });
  await listPets.locator('.opblock-summary').click();
  const sent = w.page.waitForRequest((r) => r.url().startsWith(`${origin}/v1/pets`), { timeout: 30_000 });
  await listPets.locator('button.execute').click();
  const request = await sent;
  const status = listPets.locator('.live-responses-table tr.response .response-col_status').first();
  await expect.poll(() => status.innerText(), { timeout: 30_000 }).toContain('200');
  return request.headers()['authorization'];
}

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

  it('"try it" on listPets works on the first click: the key is authorized already, sent, and answered 200', async () => {
    const w = await watchedPage(browser);
    expect(await tryListPets(w, sb.origin)).toBe(`Bearer ${KEY}`);
    // One place to authorize: Swagger UI's own, shown authorized; the bar above it holds no credential box.
    expect(await w.page.locator('.sandbox-bar input').count()).toBe(0);
    expect(await w.page.locator('.auth-wrapper .btn.authorize').getAttribute('class')).toMatch(/\blocked\b/);
    expect(w.errors).toEqual([]);
    expect(w.outside).toEqual([]);
    await w.page.context().close();
  });

  it("told no key (another machine's browser), leaves Authorize's box empty, with a placeholder", async () => {
    const w = await watchedPage(browser);
    // What the sandbox tells a remote peer (test/integration/docs-api-key.test.ts), given to this loopback browser.
    await w.page.route('**/docs/api-key.json', (route) => route.fulfill({ contentType: 'application/json', body: '{"apiKey":null}' }));
    await w.page.goto(`${sb.origin}/docs`);
    await w.page.locator(block('listPets')).waitFor({ timeout: 30_000 });
    const authorize = w.page.locator('.auth-wrapper .btn.authorize');
    expect(await authorize.getAttribute('class')).toMatch(/\bunlocked\b/);
    await authorize.click();
    const box = w.page.locator('.auth-container input').first();
    await box.waitFor({ timeout: 30_000 });
    expect(await box.inputValue()).toBe('');
    await expect.poll(() => box.getAttribute('placeholder'), { timeout: 30_000 }).toBe('an API key');
    await w.page.context().close();
  });

  it('/docs/control is never authorized for you: its boxes are empty, each naming what it takes, and no key is asked for', async () => {
    const w = await watchedPage(browser);
    await w.page.goto(`${sb.origin}/docs/control`);
    await w.page.locator(block('listCheckpoints')).waitFor({ timeout: 30_000 });
    expect(await w.page.locator('.auth-wrapper .btn.authorize').getAttribute('class')).toMatch(/\bunlocked\b/);
    expect(w.requests.filter((url) => url.includes('api-key'))).toEqual([]);
    await w.page.locator('.auth-wrapper .btn.authorize').click();
    const boxes = w.page.locator('.auth-container input');
    await expect.poll(() => boxes.count(), { timeout: 30_000 }).toBe(3);
    await expect
      .poll(() => boxes.evaluateAll((all) => all.map((b) => [b.getAttribute('placeholder'), (b as unknown as { value: string }).value])), { timeout: 30_000 })
      .toEqual([
        ['the admin token', ''],
        ['an API key', ''],
        ['the metrics token', ''],
      ]);
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

describe('the API docs of a sandbox whose keys are in a file', { timeout: 120_000 }, () => {
  const OWN_KEY = 'team-key-0123456789abcdef';
  let own: TestSandbox;
  beforeAll(async () => {
    const file = join(tempDir('petstore-keys-'), 'api-keys');
    writeFileSync(file, `# the team's keys\n${OWN_KEY}\nsecond-key-0123456789\n`, { mode: 0o600 });
    own = await startTestSandbox(['--api-keys-file', file]);
  }, 60_000);
  afterAll(() => own?.stop());

  it('"try it" sends the first key of --api-keys-file, shown to this loopback browser', async () => {
    const w = await watchedPage(browser);
    expect(await tryListPets(w, own.origin)).toBe(`Bearer ${OWN_KEY}`);
    expect(w.errors).toEqual([]);
    await w.page.context().close();
  });
});
