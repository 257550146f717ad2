import { MODES } from '../config/modes.js';
import { ApiError } from '../kernel/errors.js';
import { echo } from '../kernel/echo.js';
import { createKeyMatcher } from '../kernel/auth.js';
import { faultStatuses, type FaultInput } from '../store/faults.js';
import { JsonPieces, type ControlContext, type ControlDeps, type ControlHandlers, type HandlerGroup, type KeyRole } from './handler-types.js';
import { journalHandlers } from './journal-handlers.js';
import { coverageHandlers } from './coverage-handlers.js';
import { checkpointHandlers } from './checkpoint-handlers.js';
import { probeHandlers } from './probe-handlers.js';
import { providerStateHandlers } from './provider-state-handlers.js';
import { checkResetOptions, resetSet } from './operations.js';
import { exportOf } from './api-items.js';
import { loadSet, planSet } from './set-load.js';
import { beforeWrite } from './before-write.js';
import { apiHandlers, apisOf, servedPathsOf } from './apis.js';
import type { ControlBody, ControlResult } from './routes.js';

type FaultList = ControlResult<'listFaults'>['faults'];

/** Where each key of a call comes from in an HTTP request, as the control plane's refusals name it. */
const KEY_HEADERS: Record<KeyRole, string> = { source: 'X-Sandbox-Key', target: 'X-Sandbox-Target-Key' };

/** Health and mode. */
function modeHandlers({ deps }: ControlContext): HandlerGroup<'getHealth' | 'getMode' | 'setMode'> {
  const { runtime } = deps;
  // Only the modes this sandbox can answer in are offered: proxy needs a deployment to forward to (--upstream), Prism's
  // modes need Node. The others are refused (prepareMode says why where it can: a browser's 501).
  const available = deps.modes ?? MODES.filter((mode) => mode !== 'proxy');
  const modes = MODES.filter((mode) => available.includes(mode));
  const modeState = () => ({ mode: runtime.mode, modes: [...modes] });
  return {
    getHealth: () => ({ status: 'ok', mode: runtime.mode, version: deps.version, uptimeSeconds: Math.round((Date.now() - deps.startedAt) / 1000) }),
    getMode: modeState,
    setMode: async ({ body }) => {
      const mode = (body as ControlBody<'setMode'>).mode;
      // First what this sandbox can answer in at all (a browser cannot forward: 501), then what it was started with.
      await deps.prepareMode?.(mode);
      if (mode === 'proxy' && !modes.includes(mode))
        throw ApiError.of('invalid_request', `Mode ${echo(mode, '')} needs an upstream: start the sandbox with --upstream <base address ending in /v1>.`);
      if (!modes.includes(mode)) throw ApiError.of('not_implemented', `Mode ${echo(mode)} cannot answer in this sandbox: it offers ${modes.join(', ')}.`);
      await runtime.set(mode);
      return modeState();
    },
  };
}

/** The workspaces' data: listing, reset, fixture loads, export. */
function dataHandlers({
  deps,
  keyOf,
  summary,
}: ControlContext): HandlerGroup<'listWorkspaces' | 'listFixtures' | 'resetWorkspace' | 'loadFixture' | 'exportWorkspace'> {
  const { config, workspaces } = deps;
  return {
    listWorkspaces: async () => ({ workspaces: await Promise.all((config.openKeys ? [] : config.apiKeys).map(summary)), open: workspaces.openIds() }),
    listFixtures: async () => ({ fixtures: await deps.fixtures.names() }),
    resetWorkspace: async ({ key, body = {}, signal }) => {
      const options = checkResetOptions({ seed: body.seed ?? config.seed, count: body.count ?? config.count, empty: body.empty });
      const k = keyOf(key);
      const { pets, nextId } = resetSet(options);
      await beforeWrite(signal);
      await workspaces.use(k, (store) => store.replace(pets, nextId));
      // The items of every spec served by convention start again from their seed too.
      await deps.items?.drop(k);
      return summary(k);
    },
    loadFixture: async ({ key, body, signal }) => {
      const b = body as ControlBody<'loadFixture'>;
      if ((b.fixture === undefined) === (b.pets === undefined && b.generate === undefined && b.apis === undefined)) {
        throw ApiError.of('invalid_request', 'Send either "fixture" (a name from fixtures/) or a fixture set ("pets", "generate", "apis").');
      }
      const set = b.fixture === undefined ? b : await deps.fixtures.read(b.fixture);
      const plan = planSet(set, deps.checkPet, deps.apiItems);
      const k = keyOf(key);
      await loadSet(deps, k, plan, b.mode ?? 'replace', signal);
      return summary(k);
    },
    exportWorkspace: ({ key }) => {
      const k = keyOf(key);
      // With APIs served by convention, their items (each API's read at one moment) after the pets.
      return workspaces.use(k, async (store) => new JsonPieces<ControlResult<'exportWorkspace'>>(await exportOf(deps.apiItems, k, store.exportPieces())));
    },
  };
}

/** A workspace's faults. They hold operation ids of the interface, which the spec's enum lists too. */
function faultHandlers({ deps, workspaceOf }: ControlContext): HandlerGroup<'listOperations' | 'listFaults' | 'addFault' | 'clearFaults' | 'deleteFault'> {
  const { faults } = deps;
  const pathOf = servedPathsOf(apisOf(deps));
  // What checkFault accepts, from the same function: a form built on it offers nothing the sandbox refuses.
  const operations = [...deps.operations.values()].map((op) => ({
    operationId: op.operationId,
    method: op.method.toUpperCase(),
    path: pathOf(op),
    faultStatuses: faultStatuses(op).sort((a, b) => a - b),
  }));
  return {
    listOperations: () => ({ operations }),
    listFaults: async ({ key }) => {
      const workspace = workspaceOf(key);
      return { workspace, faults: (await faults.list(workspace)) as FaultList };
    },
    addFault: async ({ key, body }) => (await faults.add(workspaceOf(key), body as FaultInput)) as FaultList[number],
    clearFaults: async ({ key }) => {
      const workspace = workspaceOf(key);
      return { workspace, cleared: await faults.clear(workspace) };
    },
    deleteFault: async ({ key, path }) => {
      const workspace = workspaceOf(key);
      const cleared = await faults.clear(workspace, path.faultId);
      if (cleared === 0) throw ApiError.of('not_found', `No fault ${echo(String(path.faultId), '')} in this workspace.`);
      return { workspace, cleared };
    },
  };
}

/**
 * The control plane's operations on the sandbox's state: its mode, the
 * workspaces' data, the journal and the faults. Cross-field rules that the
 * spec cannot state (a fixture name or a set, not both; a key that is
 * configured) are checked here.
 */
export function createControlHandlers(deps: ControlDeps): ControlHandlers {
  const { config, workspaces } = deps;
  const isApiKey = createKeyMatcher(config.apiKeys);
  const keyOf = (raw: string | undefined, role: KeyRole = 'source'): string => {
    if (raw === undefined) return config.apiKeys[0] as string;
    if (!config.openKeys && !isApiKey(raw))
      throw ApiError.of('not_found', `${KEY_HEADERS[role]} is not one of the configured API keys, so it has no workspace.`);
    return raw;
  };
  const context: ControlContext = {
    deps,
    keyOf,
    workspaceOf: (raw) => workspaces.idOf(keyOf(raw)),
    summary: (key) => workspaces.use(key, async (store) => ({ workspace: workspaces.idOf(key), ...(await store.summary()) })),
  };
  return {
    ...modeHandlers(context),
    ...dataHandlers(context),
    ...journalHandlers(context),
    ...coverageHandlers(context),
    ...faultHandlers(context),
    ...providerStateHandlers(context),
    ...checkpointHandlers(context),
    ...probeHandlers(context),
    ...apiHandlers(context),
  };
}
