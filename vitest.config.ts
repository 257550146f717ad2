import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Each example is a user's project with its own tools and test script, run by test/examples/examples.test.ts.
    exclude: [...configDefaults.exclude, 'examples/**'],
    // Starts PostgreSQL when the run is on that backend (PETSTORE_TEST_STORE=postgres), else does nothing.
    globalSetup: ['test/support/postgres-global.ts'],
  },
});
