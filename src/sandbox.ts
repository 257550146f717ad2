import type { Server } from 'node:http';
import { createRequestListener, type Runtime, type V1Exchange } from './app.js';
import type { Config } from './config.js';
import { Faults } from './control/faults.js';
import { Journal, JOURNAL_BODY_LIMIT, type JournalEntry } from './control/journal.js';
import { createControlRouter } from './control/router.js';
import { checkExposure } from './exposure.js';
import { connectionCap, openFileLimit } from './http/file-limit.js';
import { closeServer, listen } from './http/server.js';
import { acquireLock } from './lock.js';
import { createPreferInterceptor } from './modes/prefer/interceptor.js';
import { createPrismEngine, createPrismMode } from './modes/prism/index.js';
import { createStatefulMode } from './modes/stateful/index.js';
import { loadSpec, type Spec } from './openapi/spec.js';
import { createValidators, formatIssues, type SchemaCheck, type Validators } from './openapi/validate.js';
import { PACKAGE_VERSION } from './paths.js';
import { workspaceId, Workspaces } from './store/workspaces.js';

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
  workspaces: Workspaces;
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

/** Whether a journaled response matched the spec (documented status, valid body). */
function responseChecker(spec: Spec, validators: Validators): (entry: JournalEntry) => boolean {
  const checks = new Map<string, SchemaCheck>();
  const error = validators.schema('/components/schemas/Error');
  return (entry) => {
    const op = entry.operationId ? spec.operations.get(entry.operationId) : undefined;
    const pointer = op?.responses.get(entry.status)?.schemaPointer;
    if (!pointer) return entry.status >= 400 && error(entry.responseBody).length === 0;
    let check = checks.get(pointer);
    if (!check) checks.set(pointer, (check = validators.schema(pointer)));
    return check(entry.responseBody).length === 0;
  };
}

/** A request body's size: bytes as sent, or for a chunked body (no Content-Length) the length of its JSON. */
function requestBodySize(e: V1Exchange): number {
  const declared = e.req.headers['content-length'];
  if (declared !== undefined) return Number(declared);
  return e.requestBody === undefined ? 0 : (JSON.stringify(e.requestBody)?.length ?? 0);
}

function journalEntry(e: V1Exchange): JournalEntry {
  const size = requestBodySize(e);
  return {
    time: new Date().toISOString(),
    method: e.req.method ?? '',
    path: e.path,
    query: { ...e.query },
    operationId: e.op?.operationId ?? null,
    status: e.status,
    durationMs: Math.round(e.durationMs * 100) / 100,
    requestBody: size > JOURNAL_BODY_LIMIT ? { truncated: true, size } : e.requestBody,
    responseBody: e.body,
  };
}

/**
 * Wires the sandbox together (spec, validators, stores, control plane, app)
 * and listens. Rejects before anything listens when the configuration is
 * unsafe to expose (ConfigError), another process holds the data file
 * (LockedError) or the data file cannot be read (StoreError).
 */
export async function startSandbox(config: Config, logger: Logger = silentLogger, options: SandboxOptions = {}): Promise<Sandbox> {
  checkExposure(config);
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

/** Everything but the lock: stores, control plane, app, listener. */
async function wire(config: Config, logger: Logger, options: SandboxOptions): Promise<Sandbox> {
  const startedAt = Date.now();
  const spec = loadSpec();
  const validators = createValidators(spec);
  const checkPet = validators.schema('/components/schemas/Pet');
  const defaultKey = config.apiKeys[0] as string;
  const workspaces = new Workspaces(config.dataFile, defaultKey, {
    seed: { seed: config.seed, count: config.count },
    compactAfter: config.compactAfter,
    checkPet: (pet) => {
      const issues = checkPet(pet);
      return issues.length ? [formatIssues(issues)] : [];
    },
  });
  // The default workspace opens now, so a bad data file stops start-up with a clear error.
  await workspaces.forKey(defaultKey);

  const runtime: Runtime = { mode: config.mode };
  // Prism loads lazily (seconds of imports): at start-up only when a Prism mode is chosen, else on first use.
  const prism = createPrismEngine([...spec.operations.keys()]);
  if (config.mode !== 'stateful') await prism.ready().catch(async (error: unknown) => {
    await workspaces.close();
    throw error;
  });
  const journal = new Journal(config.journalSize, responseChecker(spec, validators));
  const faults = new Faults(spec.operations);
  const control = createControlRouter({ config, runtime, workspaces, journal, faults, checkPet: validators.schema('/components/schemas/Pet', 'record'), version: PACKAGE_VERSION, startedAt, prepareMode: (mode) => (mode === 'stateful' ? Promise.resolve() : prism.ready()) });
  const listener = createRequestListener({
    config,
    spec,
    validators,
    runtime,
    modes: {
      stateful: createStatefulMode(workspaces),
      example: createPrismMode({ spec, engine: prism, dynamic: false, seed: config.seed }),
      dynamic: createPrismMode({ spec, engine: prism, dynamic: true, seed: config.seed }),
    },
    interceptors: [faults.interceptor, createPreferInterceptor({ engine: prism, seed: config.seed })],
    extensions: [{ path: '/__sandbox', router: control }],
    onResponse: (exchange) => journal.add(workspaceId(exchange.key ?? defaultKey), journalEntry(exchange)),
    onUnexpected: (error, req) => logger.error(`Unexpected error on ${req.method} ${req.url}`, error),
  }, options);
  const { cap, note } = connectionCap(config.maxConnections, openFileLimit());
  let server: Server;
  let origin: string;
  try {
    ({ server, origin } = await listen(listener, config.port, config.host, cap));
  } catch (error) {
    await workspaces.close();
    throw error;
  }
  return {
    origin,
    baseUrl: `${origin}/v1`,
    server,
    runtime,
    workspaces,
    maxConnections: cap,
    notices: note ? [note] : [],
    close: async () => {
      await closeServer(server);
      await workspaces.close();
    },
  };
}
