/**
 * The `petstore-sandbox/playwright` entry: `test`, Playwright's own with a
 * `sandbox` fixture, and `expect`. One sandbox serves the run (started by
 * the global setup, `petstore-sandbox/playwright/global-setup`); each worker
 * has a workspace of its own under its own key, so parallel workers never
 * see each other's pets.
 */
import { expect as playwrightExpect, test as base } from '@playwright/test';
import { journalFixture, keyFixture, sandboxFixture, workerFixture, type SandboxTestFixtures, type SandboxWorkerFixtures } from './fixtures.js';

/** Playwright's `test` with `sandbox` (`{ url, key, workspace, route(page, { api }) }`); a failed test's report holds the worker's journal. */
export const test = base.extend<SandboxTestFixtures, SandboxWorkerFixtures>({
  sandboxKey: [keyFixture, { scope: 'worker' }],
  sandboxWorker: [workerFixture, { scope: 'worker' }],
  sandbox: sandboxFixture,
  sandboxJournalOnFailure: [journalFixture, { auto: true }],
});

/** Playwright's own `expect`, so that a test file imports both from one place. */
export const expect = playwrightExpect;
export type { SandboxFixture, SandboxWorker, SandboxTestFixtures, SandboxWorkerFixtures } from './fixtures.js';
export type { RouteOptions } from './route.js';
export type { Workspace } from '../library/workspace.js';
export { workerKey, URL_VARIABLE, ADMIN_TOKEN_VARIABLE } from './env.js';
