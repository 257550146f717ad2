/**
 * The QA console as its tests open it: logged in with the admin token, its
 * workspace shown and its live streams following.
 */
import type { Browser, Page } from 'playwright-core';
import { expect } from 'vitest';
import { watchedPage, type WatchedPage } from './browser.js';

/** Waits until the console shows its workspace and follows its journal (after login or a reload). */
export async function shown(page: Page): Promise<void> {
  await expect.poll(() => page.locator('#workspace-summary').innerText(), { timeout: 30_000 }).toMatch(/^Workspace [0-9a-f]{16}: /);
  await expect.poll(() => page.locator('#journal-state').innerText(), { timeout: 30_000 }).toMatch(/^Following/);
}

/** A page of the console at `origin`, logged in with `token`, its workspace shown (on `w` when given). */
export async function loggedIn(browser: Browser, origin: string, token: string, w?: WatchedPage): Promise<WatchedPage> {
  const watched = w ?? (await watchedPage(browser));
  await watched.page.goto(`${origin}/__sandbox/ui`);
  await watched.page.fill('#token', token);
  await watched.page.click('#login-form button');
  await shown(watched.page);
  return watched;
}
