import type { Server } from 'node:http';
import { createRequestListener, type Runtime, type V1Exchange } from './app.js';
import type { Config } from './config.js';
import { Faults } from './control/faults.js';
import { Journal, JOURNAL_BODY_LIMIT, type JournalEntry } from './control/journal.js';
import { createControlRouter } from './control/router.js';
import { closeServer, listen } from './http/server.js';
import { createPreferInterceptor } from './modes/prefer/interceptor.js';
import { createPrismEngine, createPrismMode } from './modes/prism/index.js';
import { createStatefulMode } from './modes/stateful/index.js';
import { loadSpec, type Spec } from './openapi/spec.js';
import { createValidators, formatIssues, type SchemaCheck, type Validators } from './openapi/validate.js';
import { PACKAGE_VERSION } from './paths.js';
import { Workspaces } from './store/workspaces.js';

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
  /** Stops the listener, then flushes and closes every store. */
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

/** The file-backed workspaces of a configuration (also used by the QA commands working on the files). */
export function openWorkspaces(config: Config, logger: Logger, checkPet?: (pet: unknown) => string[]): Promise<Workspaces> {
  return Workspaces.open({
    dataFile: config.dataFile,
    defaultKey: config.apiKeys[0] as string,
    maxOpen: config.maxWorkspaces,
    idleMs: config.workspaceIdleMs,
    store: {
      seed: { seed: config.seed, count: config.count },
      compactAfter: config.compactAfter,
      quota: { pets: config.quotaPets, bytes: config.quotaBytes },
      warn: (message) => logger.error(message),
      ...(checkPet ? { checkPet } : {}),
    },
  });
}

/**
 * Wires the sandbox together (spec, validators, stores, control plane, app)
 * and listens. A data file that cannot be read rejects before anything listens.
 */
export async function startSandbox(config: Config, logger: Logger = silentLogger, options: SandboxOptions = {}): Promise<Sandbox> {
  const startedAt = Date.now();
  const spec = loadSpec();
  const validators = createValidators(spec);
  const checkPet = validators.schema('/components/schemas/Pet');
  const defaultKey = config.apiKeys[0] as string;
  const workspaces = await openWorkspaces(config, logger, (pet) => {
    const issues = checkPet(pet);
    return issues.length ? [formatIssues(issues)] : [];
  });
  // The default workspace opens now, so a bad data file stops start-up with a clear error.
  await workspaces.use(defaultKey, () => undefined).catch(async (error: unknown) => {
    await workspaces.close();
    throw error;
  });

  const runtime: Runtime = { mode: config.mode };
  // Prism loads lazily (seconds of imports): at start-up only when a Prism mode is chosen, else on first use.
  const prism = createPrismEngine([...spec.operations.keys()]);
  if (config.mode !== 'stateful') await prism.ready().catch(async (error: unknown) => {
    await workspaces.close();
    throw error;
  });
  const journal = new Journal(config.journalSize, responseChecker(spec, validators));
  const faults = new Faults(spec.operations, (key) => workspaces.idOf(key));
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
    onResponse: (exchange) => journal.add(workspaces.idOf(exchange.key ?? defaultKey), journalEntry(exchange)),
    onUnexpected: (error, req) => logger.error(`Unexpected error on ${req.method} ${req.url}`, error),
  }, options);
  let server: Server;
  let origin: string;
  try {
    ({ server, origin } = await listen(listener, config.port, config.host));
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
    close: async () => {
      await closeServer(server);
      await workspaces.close();
    },
  };
}
