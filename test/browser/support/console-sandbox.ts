/**
 * The set-up the console's browser files share: the pages built, one sandbox
 * started with an admin token of the file's own, its typed control client,
 * and Chromium; all stopped after the file.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import type { ControlClient } from '../../../src/control/client.js';
import { clientOf } from '../../support/control-client.js';
import { startTestSandbox, type TestSandbox } from '../../support/harness.js';
import { launch } from './browser.js';

/** What a file's tests use; filled in before its first test. */
export interface ConsoleSandbox {
  sb: TestSandbox;
  control: ControlClient;
  browser: Browser;
}

/** Registers the file's beforeAll/afterAll: a sandbox started with `--admin-token admin` and `args`, and a browser. */
export function consoleSandbox(admin: string, args: string[]): ConsoleSandbox {
  const ctx = {} as ConsoleSandbox;
  beforeAll(async () => {
    await import('../../../web/build.js');
    ctx.sb = await startTestSandbox(['--admin-token', admin, ...args]);
    ctx.control = clientOf(ctx.sb);
    ctx.browser = await launch();
  }, 120_000);
  afterAll(async () => {
    await ctx.browser?.close();
    await ctx.sb?.stop();
  });
  return ctx;
}
