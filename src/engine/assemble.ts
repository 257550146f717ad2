import type { Config, Mode } from '../config/load.js';
import { createEngine, type ClosableEngine, type ServedApi } from './engine.js';
import type { ApiParts } from './engine-types.js';

export type { ApiParts } from './engine-types.js';
import { conventionalApi, servedPartsOf, type ServedParts } from './conventional-api.js';
import { servedOperations } from '../openapi/served-spec.js';
import { createControlPlane } from '../control/plane.js';
import type { Interceptor, ModeHandler, V1Exchange } from '../kernel/operation.js';
import { createV1Pipeline } from '../v1/pipeline.js';
import { UNAUTHENTICATED } from '../store/journal/journal.js';
import { createJournalCapture, responseCheckerOf } from '../store/journal/capture.js';
import type { FixtureSource } from '../control/fixtures.js';
import type { JournalRecord } from '../store/journal/types.js';
import { createStatefulMode } from '../modes/stateful/index.js';
import type { Spec } from '../openapi/spec.js';
import type { Validators } from '../openapi/validate.js';
import type { Logger } from '../kernel/logger.js';
import type { Metrics, MetricSources } from '../ops/metrics.js';
import { createReporting, storeWriteListener } from '../ops/reporting.js';
import type { Backend } from '../store/backend.js';
import type { PassThroughMode } from '../modes/proxy/types.js';
import type { Tracing } from '../kernel/tracing.js';
import { tracedWorkspaces } from '../store/traced-workspaces.js';

/** What the engine is made of, every piece handed in as a value: it reads no file and loads nothing of a platform. */
export interface EngineParts {
  config: Config;
  logger: Logger;
  /** The interface's spec, and its validators. */
  spec: Spec;
  validators: Validators;
  /** The control plane's spec (checked against its route table) and the fixture sets it loads by name. */
  controlSpec: Spec;
  fixtures: FixtureSource;
  /** The opened store. */
  backend: Backend;
  version: string;
  startedAt: number;
  /** Whether the sandbox is shutting down (`/readyz` answers 503). */
  draining: () => boolean;
  /** The metrics over their sources: Prometheus's on Node, none in a browser. */
  createMetrics: (sources: MetricSources) => Metrics;
  /** Handlers of the modes beyond `stateful` (Prism's, on Node), each serving every operation of the spec. */
  modes: Partial<Record<Mode, ModeHandler>>;
  /** Readies a mode before the control plane switches to it; a rejection is the switch's answer. */
  prepareMode: (mode: Mode) => Promise<void>;
  /** The `Prefer` interceptor, after the faults. */
  prefer: Interceptor;
  /** Proxy mode's way to the upstream (Node's, when `--upstream` is set); without it proxy mode is refused. */
  passThrough?: PassThroughMode | undefined;
  /** The APIs served (`--spec`), each under its base path; absent: the Pet Store alone, at `/v1`. */
  apis?: readonly ApiParts[] | undefined;
  /** Traces (OpenTelemetry's on Node, when `OTEL_EXPORTER_OTLP_ENDPOINT` is set); absent: none. */
  tracing?: Tracing | undefined;
}

/** The engine assembled, and the reporting its events feed (the Node server reports its pages and refused connections there too). */
export interface AssembledEngine {
  engine: ClosableEngine;
  reporting: ReturnType<typeof createReporting>;
}

/** The modes the engine can answer in: stateful, those it was handed handlers for (Prism's, on Node), proxy with an upstream. */
const availableModes = (parts: EngineParts): Mode[] => [
  'stateful',
  ...(Object.keys(parts.modes) as Mode[]),
  ...(parts.passThrough ? (['proxy'] as const) : []),
];

/** A handler for every operation of the spec, or the sandbox would answer some of them from nowhere. */
function checkModes(spec: Spec, modes: Record<string, ModeHandler>): void {
  for (const [name, mode] of Object.entries(modes)) {
    for (const op of spec.operations.keys()) if (!mode.operations.has(op)) throw new Error(`Mode ${name} has no handler for spec operation ${op}`);
  }
}

/**
 * The id of the last key asked, kept: an answer's journal entry and its log
 * line ask for the same key's id one after the other, and most requests
 * come with the key of the one before. An id never changes for its key.
 */
function lastIdOf(idOf: (key: string) => string): (key: string) => string {
  let lastKey: string | undefined;
  let lastId = '';
  return (key) => {
    if (key !== lastKey) {
      lastId = idOf(key);
      lastKey = key;
    }
    return lastId;
  };
}

/** The store's kind, as its spans name it. */
const storeName = (config: Config): string =>
  config.postgresUrl !== undefined ? 'postgresql'
  : config.memory ? 'memory'
  : 'file';

/** What journals a /v1 answer. Nothing is copied for a journal that would not keep it; a request without a valid key never displaces a workspace's entries. */
function journaling(journal: Backend['journal'], capture: (e: V1Exchange) => JournalRecord, workspaceOf: (key: string) => string) {
  return (e: V1Exchange): void => {
    if (journal.size > 0 && journal.accepting?.() !== false) journal.add(e.key === undefined ? UNAUTHENTICATED : workspaceOf(e.key), capture(e));
  };
}

/** What the control plane knows of the APIs served: each one's spec, and the items of those served by convention (`conventional`). */
function apisForControl(parts: EngineParts, conventional: ReadonlyMap<string, ServedParts>) {
  const { spec, backend } = parts;
  return {
    apis: (parts.apis ?? [{ base: '/v1', spec, embedded: true }]).map(({ base, spec: served, embedded }) => ({
      base,
      spec: served,
      embedded,
      ...(conventional.get(base)?.layered ? { layered: true } : {}),
    })),
    ...(conventional.size > 0 ? { items: backend.items, apiItems: { apis: [...conventional.values()].map((api) => api.served), store: backend.items } } : {}),
  };
}

/**
 * The engine of a sandbox from its parts, with no platform of its own: the
 * same assembly serves the Node server (server/sandbox.ts, which reads the
 * files, opens the store and adds Prism, proxy mode and Express) and the
 * browser (library/browser-sandbox.ts, with everything embedded at build time).
 */
export function assembleEngine(parts: EngineParts): AssembledEngine {
  const { config, logger, spec, validators, backend } = parts;
  const { journal, faults, mode: runtime } = backend;
  // Traced, a workspace's reads and writes are each a child span of the request's; else handed out as they are.
  const workspaces = parts.tracing ? tracedWorkspaces(backend.workspaces, parts.tracing, storeName(config)) : backend.workspaces;
  const check = responseCheckerOf(parts.apis ?? [{ spec, validators }]);
  const droppedLogLines = () => logger.droppedLines?.() ?? 0;
  const metrics = parts.createMetrics({ workspaces, journalMemory: () => journal.memory(), droppedLogLines });
  // The store times its own writes and tells the metrics once each settled.
  workspaces.listen(storeWriteListener(metrics));
  const workspaceOf = lastIdOf((key) => workspaces.idOf(key));
  const reporting = createReporting({
    logger,
    metrics,
    runtime,
    workspaceOf,
    check,
    checks: config.checkAnswers,
    also: journaling(journal, createJournalCapture(check), workspaceOf),
    tracing: parts.tracing,
  });
  const sync = backend.sync?.bind(backend);
  const onUnexpected = (error: unknown, request: { method: string; url: string }) =>
    logger.error(`Unexpected error on ${request.method} ${request.url}`, error);
  // Aborted by the engine's close: the faults' delays and the live journal tails stop on it.
  const closing = new AbortController();
  // The items each API served by convention keeps: its mode writes them, the control plane exports, loads and copies them.
  const conventional = new Map((parts.apis ?? []).filter((api) => !api.embedded).map((api) => [api.base, servedPartsOf(api, config, spec)]));
  const control = createControlPlane({
    config,
    runtime,
    workspaces,
    journal,
    faults,
    ...(backend.checkpoints ? { checkpoints: backend.checkpoints } : {}),
    checkPet: validators.schema('/components/schemas/Pet', 'record'),
    operations: servedOperations(parts.apis ?? [{ spec }]),
    ...apisForControl(parts, conventional),
    version: parts.version,
    startedAt: parts.startedAt,
    prepareMode: parts.prepareMode,
    modes: availableModes(parts),
    probes: { draining: parts.draining, backend },
    fixtures: parts.fixtures,
    controlSpec: parts.controlSpec,
    interfaceSpec: spec,
    metrics,
    ...(sync ? { sync } : {}),
    onUnexpected,
    closing: closing.signal,
  });
  const served = parts.apis ?? [{ base: '/v1', spec, validators, embedded: true, modes: parts.modes, prefer: parts.prefer }];
  const apis = served.map((api): ServedApi => {
    const shared = { config, base: api.base, spec: api.spec, validators: api.validators, runtime, sync, onUnexpected, closing: closing.signal };
    const interceptors = [faults.interceptor, api.prefer];
    if (!api.embedded)
      return { base: api.base, pipeline: createV1Pipeline({ ...shared, ...conventionalApi(api, backend, config, conventional.get(api.base)), interceptors }) };
    const modes = { ...api.modes, stateful: createStatefulMode(workspaces) };
    checkModes(api.spec, modes);
    return { base: api.base, pipeline: createV1Pipeline({ ...shared, modes, passThrough: parts.passThrough, interceptors }) };
  });
  const events = { exchange: reporting.onResponse, answered: reporting.onAnswered };
  return { engine: createEngine({ config, apis, control, events, onUnexpected, closing, tracing: parts.tracing }), reporting };
}
