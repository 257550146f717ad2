import { defineConfig } from '@playwright/test';

export default defineConfig({
  testDir: 'tests',
  fullyParallel: true,
  workers: 2,
  // One sandbox for the run; each worker gets a workspace of its own.
  globalSetup: 'petstore-sandbox/playwright/global-setup',
  // The page's server picks a free port and prints it; Playwright puts the URL in EXAMPLE_URL before the workers start.
  webServer: { command: 'node server.js', wait: { stdout: /example page at (?<example_url>http:\/\/\S+)/ } },
  use: {
    // Read when a worker loads this file, after the web server printed its URL.
    baseURL: process.env.EXAMPLE_URL,
    launchOptions: { executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium' },
  },
});
