import { createFetchHandler, createInProcessFetch } from '../adapters/fetch.js';
import type { BodyDecoders } from '../adapters/fetch-body.js';
import { assembleEngine } from '../engine/assemble.js';
import type { Mode } from '../config/modes.js';
import { createControlClient } from '../control/client.js';
import { checkRoutes } from '../control/request-checks.js';
import { responseCheckerOf } from '../store/journal/capture.js';
import { checkBases, servedOperations, servedSpecOf, type ServedSpec } from '../openapi/served-spec.js';
import { ConfigError } from '../config/error.js';
import { specSources } from './option-values.js';
import type { Spec } from '../openapi/spec.js';
import { ApiError } from '../kernel/errors.js';
import { createPreferInterceptor } from '../interceptors/prefer.js';
import type { PrismRunner } from '../modes/prism/runner.js';
import { indexSpec } from '../openapi/spec.js';
import { createValidators } from '../openapi/validate.js';
import { createNoMetrics } from '../ops/no-metrics.js';
import { silentLogger } from '../kernel/logger.js';
import { openMemoryBackend } from '../store/memory/backend.js';
import { openBrowserStorage, PersistedWorkspaces, type BrowserStorage } from '../store/indexeddb/persisted-workspaces.js';
import { browserConfigOf, persistedDatabase, type BrowserSandboxOptions } from './browser-options.js';
import { embeddedSources } from './embedded.js';
import { embeddedFixtures } from './embedded-fixtures.js';
import { IN_PROCESS_ORIGIN, type PetstoreSandbox } from './petstore-sandbox.js';
import { workspaceOf } from './workspace.js';

/** A sandbox in a browser: a library sandbox's shape without `listen` (a page opens no port). */
export type BrowserSandbox = Omit<PetstoreSandbox, 'listen'>;

/** Why Prism's answers are refused in a browser: `not_implemented` (501), documented in the error catalogue. */
const prismRefusal = (what: string) =>
  ApiError.of('not_implemented', `${what} answers through Prism, which runs only on Node: a sandbox in a browser answers in stateful mode.`);

/** Prism in a browser: every use refused clearly (a `Prefer: code=` or `example=` in stateful mode). */
const NO_PRISM: PrismRunner = {
  ready: () => Promise.reject(prismRefusal('Prism')),
  respond: () => Promise.reject(prismRefusal("A Prefer header's code= or example=")),
};

/** A control-plane switch to a mode a browser cannot answer in: its answer, the switch not made. */
function prepareMode(mode: Mode): Promise<void> {
  if (mode === 'stateful') return Promise.resolve();
  return Promise.reject(
    mode === 'proxy' ?
      ApiError.of('not_implemented', "Mode 'proxy' forwards from Node: a sandbox in a browser answers in stateful mode.")
    : prismRefusal(`Mode '${mode}'`),
  );
}

/** Brotli has no decoder in the Compression Streams API: refused as the server refuses an encoding it does not know, saying why. */
const BROWSER_DECODERS: BodyDecoders = {
  br: () => {
    throw ApiError.of('unsupported_media_type', "Unsupported content encoding 'br' in a browser (no Brotli decoder there): send gzip or deflate.");
  },
};

/**
 * The storage `persist` asks for, or undefined: without it, or when the
 * browser has no IndexedDB to give (a private window, a policy), the
 * sandbox keeps its pets in memory and says so once on the console.
 */
async function storageOf(persist: BrowserSandboxOptions['persist']): Promise<BrowserStorage | undefined> {
  const name = persistedDatabase(persist);
  if (name === undefined) return undefined;
  try {
    return await openBrowserStorage(name);
  } catch (error) {
    // The page's console is the only place a developer looks: this sandbox has no logger there.
    console.warn(`petstore-sandbox: persist: ${(error as Error).message}; the pets are kept in memory only and are lost on reload.`);
    return undefined;
  }
}

/**
 * The specs a browser sandbox serves: documents given as objects (a browser
 * has no files), checked as `--spec` checks its files; undefined for none.
 */
function servedDocuments(spec: BrowserSandboxOptions['spec'], embedded: Spec): ServedSpec[] | undefined {
  const sources = specSources(spec);
  if (sources.length === 0) return undefined;
  const served = sources.map((source, i) => {
    if (typeof source === 'string')
      throw new ConfigError(`spec: a sandbox in a browser reads no file ('${source}'): give the spec as an object (its YAML parsed)`);
    const document = source as Record<string, unknown>;
    const title = (document.info as { title?: unknown } | undefined)?.title;
    const name = typeof title === 'string' ? `'${title}' (spec ${i + 1})` : `spec ${i + 1}`;
    try {
      return servedSpecOf(`spec-${i + 1}`, document, document, embedded);
    } catch (error) {
      throw new ConfigError(`cannot serve the spec ${name}: ${(error as Error).message.split('\n')[0] ?? ''}`);
    }
  });
  try {
    checkBases(served);
  } catch (error) {
    throw new ConfigError((error as Error).message);
  }
  return served;
}

/**
 * A sandbox for a browser (or any runtime without Node): the same engine as
 * `createSandbox`, on the memory store, from the specs and fixture sets
 * embedded at build time; answering through `fetch`, `handler` and `handle`.
 * With `persist`, the pets are kept in IndexedDB too and outlive a reload.
 * Rejects with a ConfigError for an option that needs Node: `mode`
 * `example`, `dynamic` or `proxy`, a `store` other than memory, a `port`.
 */
export async function createBrowserSandbox(options: BrowserSandboxOptions = {}): Promise<BrowserSandbox> {
  const config = browserConfigOf(options);
  const storage = await storageOf(options.persist);
  const sources = embeddedSources();
  const spec = indexSpec('openapi.yaml', sources.spec);
  const controlSpec = indexSpec('sandbox-control.yaml', sources.controlSpec);
  checkRoutes(controlSpec);
  const validators = createValidators(spec);
  const prefer = createPreferInterceptor({ prism: NO_PRISM, seed: config.seed });
  const apis = servedDocuments(options.spec, spec)?.map((served) => ({ ...served, modes: {}, prefer }));
  const backend = openMemoryBackend({
    config,
    logger: silentLogger,
    checkResponse: responseCheckerOf(apis ?? [{ spec, validators }]),
    operations: servedOperations(apis ?? [{ spec }]),
    ...(storage ? { secret: storage.secret, keep: (workspaces) => new PersistedWorkspaces(workspaces, storage) } : {}),
  });
  const { engine } = assembleEngine({
    config,
    logger: silentLogger,
    spec,
    validators,
    controlSpec,
    fixtures: embeddedFixtures(sources.fixtures),
    backend,
    version: sources.version,
    startedAt: Date.now(),
    draining: () => false,
    createMetrics: createNoMetrics,
    modes: {},
    prepareMode,
    prefer,
    apis,
  });
  const fetchOptions = { decoders: BROWSER_DECODERS };
  const fetchIn = createInProcessFetch(engine, fetchOptions, IN_PROCESS_ORIGIN);
  const client = createControlClient({ origin: IN_PROCESS_ORIGIN, adminToken: config.adminToken, fetch: fetchIn as typeof fetch });
  return {
    url: undefined,
    apiKeys: config.apiKeys,
    adminToken: config.adminToken,
    fetch: fetchIn,
    handler: createFetchHandler(engine, fetchOptions),
    handle: (request) => engine.handle(request),
    workspace: (key = config.apiKeys[0] as string) => workspaceOf(client, key),
    close: () => {
      engine.close();
      return backend.close();
    },
  };
}
