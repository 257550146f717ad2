import type { TestProject } from 'vitest/node';
import type { TestPostgres } from './postgres.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The port of the run's PostgreSQL server, when the run is on that backend (PETSTORE_TEST_STORE=postgres); 0 otherwise. */
    postgresPort: number;
  }
}

let server: TestPostgres | undefined;

/**
 * Vitest's global set-up: with PETSTORE_TEST_STORE=postgres, one real
 * PostgreSQL server for the whole run (each test sandbox gets its own
 * database on it, so files stay parallel); otherwise nothing.
 */
export async function setup(project: TestProject): Promise<void> {
  if (process.env.PETSTORE_TEST_STORE !== 'postgres') {
    project.provide('postgresPort', 0);
    return;
  }
  const { startPostgres } = await import('./postgres.js');
  server = await startPostgres();
  project.provide('postgresPort', server.port);
}

export async function teardown(): Promise<void> {
  await server?.stop();
}
