/**
 * The fixtures behind `petstore-sandbox/playwright`'s `test`: a workspace
 * per worker, the `sandbox` each test takes, and the journal attached to a
 * failed test's report.
 */
import type { BrowserContext, Page, TestInfo, WorkerInfo } from '@playwright/test';
import { createControlClient } from '../control/client.js';
import { workspaceOf, type Workspace } from '../library/workspace.js';
import { sandboxLocation, workerKey } from './env.js';
import { routeToSandbox, type RouteOptions } from './route.js';

/** A worker's part of the run's sandbox: its key's workspace, reset when the worker starts. */
export interface SandboxWorker {
  /** The sandbox's origin (its interface is under `/v1`). */
  readonly url: string;
  /** The worker's API key: no other worker of the run sends it. */
  readonly key: string;
  /** The typed controls of the key's workspace (reset, load, faults, journal, checkpoint, …), over HTTP with the admin token. */
  readonly workspace: Workspace;
}

/** What a test gets as `sandbox`. */
export interface SandboxFixture extends SandboxWorker {
  /** Sends the API calls of `page` (or of a whole browser context) to the sandbox, with the worker's key on them. */
  route(page: Page | BrowserContext, options?: RouteOptions): Promise<void>;
}

/** The fixtures `test` adds that are shared by a worker's tests. */
export interface SandboxWorkerFixtures {
  /** The worker's API key, from its slot (`workerInfo.parallelIndex`): override it only to share a workspace on purpose. */
  sandboxKey: string;
  sandboxWorker: SandboxWorker;
}

/** The fixtures `test` adds to each test. */
export interface SandboxTestFixtures {
  sandbox: SandboxFixture;
  /** Automatic: attaches the worker's journal (`sandbox-journal.json`) to a test that did not end as expected. */
  sandboxJournalOnFailure: undefined;
}

type Use<T> = (value: T) => Promise<void>;

/** The worker's key, by its slot. The unused first parameter is the object Playwright reads a fixture's dependencies from. */
// eslint-disable-next-line no-empty-pattern -- Playwright requires a destructuring pattern here, even when nothing is taken
export const keyFixture = async ({}: object, use: Use<string>, workerInfo: WorkerInfo): Promise<void> => use(workerKey(workerInfo.parallelIndex));

/** The worker's workspace, back to its seeded pets, with no faults and an empty journal before its first test. */
export async function workerFixture({ sandboxKey }: { sandboxKey: string }, use: Use<SandboxWorker>): Promise<void> {
  const { url, adminToken } = sandboxLocation(process.env);
  const workspace = workspaceOf(createControlClient({ origin: url, adminToken }), sandboxKey);
  await workspace.reset();
  await workspace.faults.clear();
  await workspace.journal.clear();
  await use({ url, key: sandboxKey, workspace });
}

/** A test's `sandbox`: the worker's, and a way to route a page to it. */
export const sandboxFixture = async ({ sandboxWorker }: { sandboxWorker: SandboxWorker }, use: Use<SandboxFixture>): Promise<void> =>
  use({ ...sandboxWorker, route: (page, options) => routeToSandbox(page, sandboxWorker, options) });

/** After a test: when it failed (or passed where it should have failed), the worker's journal goes into its report. */
export async function journalFixture({ sandboxWorker }: { sandboxWorker: SandboxWorker }, use: Use<undefined>, testInfo: TestInfo): Promise<void> {
  await use(undefined);
  if (testInfo.status === testInfo.expectedStatus) return;
  const journal = await sandboxWorker.workspace.journal.read();
  await testInfo.attach('sandbox-journal.json', { body: JSON.stringify(journal, null, 2), contentType: 'application/json' });
}
