import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Starts PostgreSQL when the run is on that backend (PETSTORE_TEST_STORE=postgres), else does nothing.
    globalSetup: ['test/support/postgres-global.ts'],
  },
});
