// A user's Vitest project with the sandbox's global setup and per-worker setup file, run by
// test/examples/vitest-workers.test.ts. SHARE_ONE_KEY=1 puts every worker on one key (the test shows its
// check then fails).
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['*.check.js'],
    globalSetup: [process.env.SANDBOX_URL ? './running-sandbox.js' : 'petstore-sandbox/vitest/global-setup'],
    setupFiles: [...(process.env.SHARE_ONE_KEY ? ['./share-one-key.js'] : []), 'petstore-sandbox/vitest/setup'],
  },
});
