/**
 * Real Chromium (Debian's, at /usr/bin/chromium) driven by playwright-core,
 * which never downloads a browser. Each page records what a test must see
 * go wrong: console errors, uncaught exceptions, dialogs (an XSS payload
 * firing `alert`), and every request that leaves 127.0.0.1.
 */
import axe from 'axe-core';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';

/** Screenshots of every run; ignored by git. `UPDATE_SCREENSHOTS=1` writes them to docs/ for the QA guide instead. */
export const SCREENSHOT_DIR =
  process.env.UPDATE_SCREENSHOTS ? join(import.meta.dirname, '..', '..', '..', 'docs') : join(import.meta.dirname, '..', '..', '..', 'test-output', 'browser');

export async function launch(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`No Chromium at ${CHROMIUM}: apt-get install -y chromium (.ci/run does it).`);
  return chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
}

/** A page and what went wrong on it. */
export interface WatchedPage {
  page: Page;
  errors: string[];
  dialogs: string[];
  /** URLs of requests to anywhere but 127.0.0.1 (`data:` and `blob:` stay in the page). */
  outside: string[];
  /** Every http request the page made, in order. */
  requests: string[];
}

export async function watchedPage(browser: Browser): Promise<WatchedPage> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const watched: WatchedPage = { page, errors: [], dialogs: [], outside: [], requests: [] };
  page.on('console', (message) => {
    if (message.type() === 'error') watched.errors.push(message.text());
  });
  page.on('pageerror', (error) => watched.errors.push(`uncaught: ${error.message}`));
  page.on('dialog', (dialog) => {
    watched.dialogs.push(`${dialog.type()}: ${dialog.message()}`);
    void dialog.dismiss();
  });
  context.on('request', (request) => {
    const url = new URL(request.url());
    if (url.protocol === 'data:' || url.protocol === 'blob:') return;
    watched.requests.push(request.url());
    if (url.hostname !== '127.0.0.1') watched.outside.push(request.url());
  });
  return watched;
}

/** axe-core's violations of impact serious or critical, as `rule: targets` lines. */
export async function seriousViolations(page: Page): Promise<string[]> {
  // Evaluated through the DevTools protocol, which the page's CSP does not govern (it would refuse an inline script).
  await page.evaluate(axe.source);
  // A string, run in the page: these tests are type-checked without the DOM's types.
  const results = (await page.evaluate("axe.run(document, { resultTypes: ['violations'] })")) as axe.AxeResults;
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help}; ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOT_DIR, name), fullPage: false });
}
