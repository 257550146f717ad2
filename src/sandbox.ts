import type { Server } from 'node:http';
import { createApp, type Runtime } from './app.js';
import type { Config } from './config.js';
import { closeServer, listen } from './http/server.js';
import { createStatefulMode } from './modes/stateful/index.js';
import { loadSpec } from './openapi/spec.js';
import { createValidators } from './openapi/validate.js';
import { formatIssues } from './openapi/validate.js';
import { openSharedWorkspace } from './store/workspaces.js';

export interface Logger {
  info(message: string): void;
  error(message: string, error?: unknown): void;
}

export const silentLogger: Logger = { info: () => undefined, error: () => undefined };

export interface Sandbox {
  /** e.g. `http://127.0.0.1:4010` */
  origin: string;
  /** e.g. `http://127.0.0.1:4010/v1` */
  baseUrl: string;
  server: Server;
  runtime: Runtime;
  /** Stops the listener, then flushes and closes the store. */
  close(): Promise<void>;
}

/**
 * Wires the sandbox together (spec, validators, store, app) and listens.
 * Store errors (a corrupt data file) reject before anything listens.
 */
export async function startSandbox(config: Config, logger: Logger = silentLogger): Promise<Sandbox> {
  const spec = loadSpec();
  const validators = createValidators(spec);
  const checkPet = validators.schema('/components/schemas/Pet');
  const workspaces = await openSharedWorkspace({
    file: config.dataFile,
    seed: { seed: config.seed, count: config.count },
    checkPet: (pet) => {
      const issues = checkPet(pet);
      return issues.length ? [formatIssues(issues)] : [];
    },
  });
  const runtime: Runtime = { mode: config.mode };
  const app = createApp({
    config,
    spec,
    validators,
    runtime,
    modes: { stateful: createStatefulMode(workspaces) },
    onUnexpected: (error, req) => logger.error(`Unexpected error on ${req.method} ${req.originalUrl}`, error),
  });
  let server: Server;
  let origin: string;
  try {
    ({ server, origin } = await listen(app, config.port, config.host));
  } catch (error) {
    await workspaces.close();
    throw error;
  }
  return {
    origin,
    baseUrl: `${origin}/v1`,
    server,
    runtime,
    close: async () => {
      await closeServer(server);
      await workspaces.close();
    },
  };
}
