import type { RequestListener, Server } from 'node:http';
import { createRequestListener } from './app.js';
import type { Config } from './config.js';
import type { Backend, ModeStore, WorkspaceStore } from './backend.js';
import { UNAUTHENTICATED } from './control/journal.js';
import { createJournalCapture, responseChecker } from './control/journal-capture.js';
import { createControlRouter } from './control/router.js';
import { checkExposure } from './exposure.js';
import { closeServer, listen } from './http/server.js';
import { acquireLock } from './lock.js';
import { createPreferInterceptor } from './interceptors/prefer.js';
import { createPrismEngine, createPrismMode, type PrismEngine } from './modes/prism/index.js';
import { createStatefulMode } from './modes/stateful/index.js';
import { loadSpec, type Spec } from './openapi/spec.js';
import { createValidators, formatIssues, type Validators } from './openapi/validate.js';
import { PACKAGE_VERSION } from './paths.js';
import { descriptorCaps, openFileLimit } from './file-limit.js';
import type { Logger } from './logger.js';
import { openFileBackend } from './store/file-backend.js';
import { openPostgresBackend } from './store/postgres/backend.js';

import { silentLogger } from './logger.js';
export { silentLogger, type Logger } from './logger.js';
export { openWorkspaces } from './store/file-backend.js';

export interface Sandbox {
  /** e.g. `http://127.0.0.1:4010` */
  origin: string;
  /** e.g. `http://127.0.0.1:4010/v1` */
  baseUrl: string;
  server: Server;
  /** Everything the sandbox keeps. */
  backend: Backend;
  /** The mode /v1 answers in (the backend's). */
  runtime: ModeStore;
  workspaces: WorkspaceStore;
  /** The effective cap on open connections (`--max-connections`, lowered to fit the open-file limit). */
  maxConnections: number;
  /** What the operator should know at start-up (e.g. a lowered connection cap). */
  notices: string[];
  /** Stops the listener, flushes and closes every store, releases the data file's lock. */
  close(): Promise<void>;
}

export interface SandboxOptions {
  /**
   * Whether plain GET requests skip Express's routing (the default). Off,
   * every request goes through Express: tests compare the two.
   */
  fastPath?: boolean;
}

/**
 * Wires the sandbox together (spec, validators, stores, control plane, app)
 * and listens. Rejects before anything listens when the configuration is
 * unsafe to expose (ConfigError), another process holds the data file
 * (LockedError) or the data file cannot be read (StoreError).
 */
export async function startSandbox(config: Config, logger: Logger = silentLogger, options: SandboxOptions = {}): Promise<Sandbox> {
  checkExposure(config);
  // Any number of instances share one database: only a data file needs the lock.
  if (config.postgresUrl !== undefined) return wire(config, logger, options);
  // One process per data file, claimed before any store opens it (recovery may repair files) and before
  // listening. A file-backed store needs it; a database server would not.
  const lock = await acquireLock(config.dataFile, 'sandbox');
  let sandbox: Sandbox;
  try {
    sandbox = await wire(config, logger, options);
  } catch (error) {
    lock.release();
    throw error;
  }
  try {
    await lock.setOrigin(sandbox.origin);
  } catch (error) {
    // The error to report is the lock's: a failure to close on top of it would only hide it.
    await sandbox.close().catch(() => undefined);
    lock.release();
    throw error;
  }
  const close = sandbox.close;
  const notices = lock.unlocked ? [`not locked: ${lock.unlocked}`, ...sandbox.notices] : sandbox.notices;
  return { ...sandbox, notices, close: () => close().finally(() => lock.release()) };
}

/**
 * The backend of a configuration (PostgreSQL when `--store` names a
 * database, else the data file), with the default workspace open: a bad
 * data file or a database out of reach stops start-up with a clear error.
 */
function openBackend(config: Config, logger: Logger, spec: Spec, validators: Validators, maxOpen: number): Promise<Backend> {
  const checkPet = validators.schema('/components/schemas/Pet');
  const check = (pet: unknown) => {
    const issues = checkPet(pet);
    return issues.length ? [formatIssues(issues)] : [];
  };
  const checkResponse = responseChecker(spec, validators);
  if (config.postgresUrl !== undefined) return openPostgresBackend({ config, url: config.postgresUrl, logger, checkResponse, operations: spec.operations });
  return openFileBackend({ config, logger, checkPet: check, checkResponse, operations: spec.operations, maxOpen });
}

interface Parts {
  config: Config;
  logger: Logger;
  spec: Spec;
  validators: Validators;
  backend: Backend;
  prism: PrismEngine;
  startedAt: number;
}

/** The control plane, the journal, faults and modes around the workspaces, as one request listener. */
function createListener({ config, logger, spec, validators, backend, prism, startedAt }: Parts, options: SandboxOptions): RequestListener {
  const { workspaces, journal, faults, mode: runtime } = backend;
  const capture = createJournalCapture(responseChecker(spec, validators));
  const control = createControlRouter({
    config,
    runtime,
    workspaces,
    journal,
    faults,
    checkPet: validators.schema('/components/schemas/Pet', 'record'),
    version: PACKAGE_VERSION,
    startedAt,
    prepareMode: (mode) => (mode === 'stateful' ? Promise.resolve() : prism.ready()),
    ...(backend.sync ? { sync: backend.sync.bind(backend) } : {}),
  });
  const modes = {
    stateful: createStatefulMode(workspaces),
    example: createPrismMode({ spec, engine: prism, dynamic: false, seed: config.seed }),
    dynamic: createPrismMode({ spec, engine: prism, dynamic: true, seed: config.seed }),
  };
  return createRequestListener(
    {
      config,
      spec,
      validators,
      runtime,
      ...(backend.sync ? { sync: backend.sync.bind(backend) } : {}),
      modes,
      interceptors: [faults.interceptor, createPreferInterceptor({ engine: prism, seed: config.seed })],
      extensions: [{ path: '/__sandbox', router: control }],
      // A request without a valid key belongs to no workspace: it never displaces a workspace's entries.
      onResponse: (e) => {
        if (journal.size > 0) journal.add(e.key === undefined ? UNAUTHENTICATED : workspaces.idOf(e.key), capture(e));
      },
      onUnexpected: (error, req) => logger.error(`Unexpected error on ${req.method} ${req.url}`, error),
    },
    options,
  );
}

/** Everything but the lock: stores, control plane, app, listener. */
async function wire(config: Config, logger: Logger, options: SandboxOptions): Promise<Sandbox> {
  const startedAt = Date.now();
  const spec = loadSpec();
  const validators = createValidators(spec);
  const caps = descriptorCaps({ connections: config.maxConnections, workspaces: config.maxWorkspaces }, openFileLimit());
  const backend = await openBackend(config, logger, spec, validators, caps.workspaces);
  // Prism loads lazily (seconds of imports): at start-up only when a Prism mode is chosen, else on first use.
  const prism = createPrismEngine([...spec.operations.keys()]);
  let server: Server;
  let origin: string;
  try {
    if (config.mode !== 'stateful') await prism.ready();
    const listener = createListener({ config, logger, spec, validators, backend, prism, startedAt }, options);
    ({ server, origin } = await listen(listener, config.port, config.host, caps.connections));
  } catch (error) {
    await backend.close();
    throw error;
  }
  return {
    origin,
    baseUrl: `${origin}/v1`,
    server,
    backend,
    runtime: backend.mode,
    workspaces: backend.workspaces,
    maxConnections: caps.connections,
    notices: caps.notes,
    close: async () => {
      await closeServer(server);
      await backend.close();
    },
  };
}
