import type { Server } from 'node:http';
import type { Assembled, Sandbox, SandboxOptions } from './sandbox-types.js';
import { createServerListener } from './app.js';
import type { Config } from '../config/load.js';
import type { Backend } from '../store/backend.js';
import { responseCheckerOf } from '../store/journal/capture.js';
import { assembleEngine } from '../engine/assemble.js';
import { checkExposure } from '../config/exposure.js';
import { closeServer, listen } from '../adapters/node-server.js';
import { perClientCap } from '../adapters/node-client-limits.js';
import { claimDataFile, probePort } from './start-claim.js';
import { createPreferInterceptor } from '../interceptors/prefer.js';
import { asNotImplemented, createPrismRunner, createPrismMode, type PrismRunner } from '../modes/prism/index.js';
import { createProxyMode, type ProxyMode } from '../modes/proxy/index.js';
import type { Spec } from '../openapi/spec.js';
import { loadSpec } from '../openapi/load-spec.js';
import { loadControlSpec } from './control-spec.js';
import { loadServedSpecs, type ServedSpec } from './served-specs.js';
import { servedOperations } from '../openapi/served-spec.js';
import { apiPartsOf } from './api-parts.js';
import type { ApiParts } from '../engine/assemble.js';
import { fixtureFiles } from './fixture-files.js';
import { serverRequestsInFlight } from './in-flight.js';
import { createValidators, type Validators } from '../openapi/validate.js';
import { formatIssues } from '../kernel/issues.js';
import { PACKAGE_VERSION, UI_DIR } from '../config/paths.js';
import { descriptorCaps, openFileLimit } from './file-limit.js';
import type { Logger } from '../kernel/logger.js';
import type { Tracing } from '../kernel/tracing.js';
import { openFileBackend } from '../store/file/file-backend.js';
import { createPages } from './pages.js';
import { openPostgresBackend } from '../store/postgres/backend.js';
import { openMemoryBackend } from '../store/memory/backend.js';

import { silentLogger } from '../kernel/logger.js';
import { createMetrics } from '../ops/metrics.js';
export { silentLogger } from '../kernel/logger.js';
export type { Logger } from '../kernel/logger.js';
export { openWorkspaces } from '../store/file/file-backend.js';
export type { Sandbox, SandboxOptions } from './sandbox-types.js';

/**
 * Wires the sandbox together (spec, validators, stores, control plane, app)
 * and listens. Rejects before anything listens when the configuration is
 * unsafe to expose or the data file's folder cannot be made (ConfigError),
 * the port is busy (EADDRINUSE), another process holds the data file
 * (LockedError) or the data file cannot be read (StoreError). A start that
 * fails leaves nothing behind: no data file, secret, folder or lock it made.
 */
export async function startSandbox(config: Config, logger: Logger = silentLogger, options: SandboxOptions = {}): Promise<Sandbox> {
  checkExposure(config);
  // A spec that cannot be served stops the start before anything is claimed or written.
  loadServedSpecs(options.specs ?? config.specs);
  // Before anything is written: a busy port seeds no data file and makes no database schema.
  await probePort(config.port, config.host);
  // Any number of instances share one database, and memory is this process's own: only a data file needs the lock.
  if (config.postgresUrl !== undefined || config.memory) return wire(config, logger, options);
  // One process per data file, claimed before any store opens it (recovery may repair files) and before
  // listening. A file-backed store needs it; a database server would not.
  const { lock, abandon } = await claimDataFile(config.dataFile, 'sandbox');
  let sandbox: Sandbox;
  try {
    sandbox = await wire(config, logger, options);
  } catch (error) {
    await abandon();
    throw error;
  }
  try {
    await lock.setOrigin(sandbox.origin);
  } catch (error) {
    // The error to report is the lock's: a failure to close on top of it would only hide it.
    await sandbox.close().catch(() => undefined);
    await abandon();
    throw error;
  }
  const close = sandbox.close;
  const notices = lock.unlocked ? [`not locked: ${lock.unlocked}`, ...sandbox.notices] : sandbox.notices;
  return { ...sandbox, notices, close: () => close().finally(() => lock.release()) };
}

/**
 * The backend of a configuration (PostgreSQL when `--store` names a
 * database, this process's memory with `--store memory`, else the data
 * file), with the default workspace open: a bad
 * data file or a database out of reach stops start-up with a clear error.
 */
function openBackend(
  config: Config,
  logger: Logger,
  { spec, validators, served }: { spec: Spec; validators: Validators; served: readonly ServedSpec[] | undefined },
  maxOpen: number,
  secret?: Uint8Array,
): Promise<Backend> {
  const checkPet = validators.schema('/components/schemas/Pet');
  const check = (pet: unknown) => {
    const issues = checkPet(pet);
    return issues.length ? [formatIssues(issues)] : [];
  };
  const checkResponse = responseCheckerOf(served ?? [{ spec, validators }]);
  const operations = servedOperations(served ?? [{ spec }]);
  if (config.postgresUrl !== undefined) return openPostgresBackend({ config, url: config.postgresUrl, logger, checkResponse, operations });
  if (config.memory) return Promise.resolve(openMemoryBackend({ config, logger, checkResponse, operations, ...(secret ? { secret } : {}) }));
  return openFileBackend({ config, logger, checkPet: check, checkResponse, operations, maxOpen });
}

interface Parts {
  config: Config;
  logger: Logger;
  spec: Spec;
  validators: Validators;
  backend: Backend;
  prism: PrismRunner;
  /** The APIs of `--spec`, each with its Prism; none: the Pet Store alone. */
  apis: (ApiParts & { prism: PrismRunner })[] | undefined;
  proxy: ProxyMode | undefined;
  tracing: Tracing | undefined;
  startedAt: number;
  draining: () => boolean;
}

/** Whether a mode answers through Prism (loaded on first use). */
const usesPrism = (mode: string) => mode === 'example' || mode === 'dynamic';

/** Prism loaded for every API served (each spec has its own). */
const readyAll = async (prism: PrismRunner, apis: readonly { prism: PrismRunner }[] = []): Promise<void> => {
  await Promise.all([prism, ...apis.map((api) => api.prism)].map((one) => one.ready()));
};

/** The request listener, and where the listener's server reports the requests it refused before any handler saw them. */
type Listening = Pick<Assembled, 'listener' | 'engine' | 'onRefused' | 'stopServing'>;

/** The engine (assembly/assemble-engine.ts) with what only Node has: the files read, Prism, proxy mode, Prometheus, and the Express listener around it. */
function createListener(parts: Parts): Listening {
  const { config, spec, prism, proxy } = parts;
  const { engine, reporting } = assembleEngine({
    ...parts,
    version: PACKAGE_VERSION,
    controlSpec: loadControlSpec(),
    fixtures: fixtureFiles(),
    createMetrics,
    modes: {
      example: createPrismMode({ spec, prism, dynamic: false, seed: config.seed }),
      dynamic: createPrismMode({ spec, prism, dynamic: true, seed: config.seed }),
    },
    prepareMode: (mode) => (usesPrism(mode) ? readyAll(prism, parts.apis).catch(asNotImplemented) : Promise.resolve()),
    prefer: createPreferInterceptor({ prism, seed: config.seed }),
    passThrough: proxy,
    apis: parts.apis,
  });
  // The listener's requests are counted, so that a stop waits for those under way (the library's in-process ones are its own).
  const inFlight = serverRequestsInFlight(reporting.onRefused);
  const listener = createServerListener({
    engine,
    pages: createPages(
      UI_DIR,
      config.apiKeys[0],
      parts.apis?.map(({ base, spec: served }) => ({ base, document: served.document })),
    ),
    onPage: reporting.onAnswered,
    inFlight,
  });
  return { listener, engine, onRefused: reporting.onRefused, stopServing: () => inFlight.stop() };
}

/**
 * Everything but the lock and the port: spec, validators, stores, control
 * plane and request handling, ready to serve (the library's in-process
 * sandbox) or to listen.
 */
export async function assembleSandbox(config: Config, logger: Logger = silentLogger, options: SandboxOptions = {}): Promise<Assembled> {
  const startedAt = Date.now();
  let draining = false;
  // The specs of --spec first: one that cannot be served stops the start before any store opens.
  const served = loadServedSpecs(options.specs ?? config.specs);
  const spec = loadSpec();
  const validators = createValidators(spec);
  const caps = descriptorCaps({ connections: config.maxConnections, workspaces: config.maxWorkspaces }, openFileLimit());
  const backend = await openBackend(config, logger, { spec, validators, served }, caps.workspaces, options.workspaceSecret);
  // Prism loads lazily (seconds of imports): at start-up only when a Prism mode is chosen, else on first use.
  const prism = createPrismRunner([...spec.operations.keys()]);
  const { tracing } = options;
  const traceparent = tracing && (() => tracing.traceparent());
  const proxy = config.upstream ? createProxyMode({ spec, validators, config, traceparent }) : undefined;
  const close = async () => {
    proxy?.close();
    await backend.close();
  };
  try {
    // The backend's mode: on a shared database it may be the one the others serve in, not --mode.
    const apis = served?.map((one) => apiPartsOf(one, config, prism));
    if (usesPrism(backend.mode.mode)) await readyAll(prism, apis);
    const listening = createListener({ config, logger, spec, validators, backend, prism, apis, proxy, tracing, startedAt, draining: () => draining });
    const bases = apis?.map((api) => api.base) ?? ['/v1'];
    return { ...listening, backend, caps, bases, drain: () => void (draining = true), close };
  } catch (error) {
    await close();
    throw error;
  }
}

/** An assembled sandbox's listener on `port`, with the server's limits (a lowered per-client cap noted in its caps). */
export function listenAssembled(assembled: Assembled, config: Config, port: number): Promise<{ server: Server; origin: string }> {
  const { caps } = assembled;
  const { perClient, note } = perClientCap(config.maxConnectionsPerClient, caps.connections);
  if (note) caps.notes.push(note);
  return listen(assembled.listener, port, config.host, { maxConnections: caps.connections, perClient }, assembled.onRefused);
}

/** Everything but the lock: an assembled sandbox, listening. */
async function wire(config: Config, logger: Logger, options: SandboxOptions): Promise<Sandbox> {
  const assembled = await assembleSandbox(config, logger, options);
  const { caps } = assembled;
  const { server, origin } = await listenAssembled(assembled, config, config.port).catch(async (error: unknown) => {
    await assembled.close();
    throw error;
  });
  return {
    origin,
    baseUrl: `${origin}${assembled.bases[0] ?? '/v1'}`,
    bases: assembled.bases,
    server,
    backend: assembled.backend,
    runtime: assembled.backend.mode,
    workspaces: assembled.backend.workspaces,
    maxConnections: caps.connections,
    notices: caps.notes,
    drain: assembled.drain,
    // New requests are refused from the start of the stop (503); the stores close once those under way have their
    // answers, whose writes are then done (or were given up when the connections' grace ended and their clients with it).
    close: async () => {
      const settled = assembled.stopServing();
      await closeServer(server);
      await settled;
      await assembled.close();
    },
  };
}
