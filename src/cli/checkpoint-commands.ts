import type { CheckpointStore, WorkspaceStore } from '../store/backend.js';
import type { Config } from '../config/load.js';
import { checkpointHandlers, type CheckpointOperation } from '../control/checkpoint-handlers.js';
import type { ControlCall, KeyRole } from '../control/handler-types.js';
import type { ControlInput, ControlResult } from '../control/routes.js';
import { createKeyMatcher } from '../kernel/auth.js';
import { ApiError } from '../kernel/errors.js';
import { silentLogger } from '../kernel/logger.js';
import { loadSpec } from '../openapi/load-spec.js';
import { createValidators } from '../openapi/validate.js';
import { FileCheckpoints } from '../store/file/checkpoints.js';
import { openWorkspaces } from '../store/file/file-backend.js';
import { StoreError } from '../kernel/store-errors.js';

/** What `checkpoint` does with its name. */
const ACTIONS = ['list', 'save', 'restore', 'delete'] as const;

export const CHECKPOINT_USAGE = 'Usage: checkpoint list | checkpoint save <name> [--overwrite] | checkpoint restore <name> | checkpoint delete <name>';
export const COPY_USAGE = 'Usage: copy --to <API key> [--checkpoint <name>]   (from the workspace of --key)';

type Extra = Record<string, string | boolean | undefined>;

/** One checkpoint operation, through the control plane or on the files; `targetKey` is where a copy goes. */
export type InvokeCheckpoint = <K extends CheckpointOperation>(operationId: K, input: ControlInput<K>, targetKey?: string) => Promise<ControlResult<K>>;

/** Why a `checkpoint` or `copy` command line is not one, or undefined when it is. */
export function checkpointUsageProblem(command: 'checkpoint' | 'copy', operands: readonly string[], extra: Extra): string | undefined {
  if (command === 'copy') return operands.length === 0 && typeof extra.to === 'string' ? undefined : COPY_USAGE;
  const [action, name, ...rest] = operands;
  if (!(ACTIONS as readonly (string | undefined)[]).includes(action) || rest.length > 0) return CHECKPOINT_USAGE;
  return (action === 'list') === (name === undefined) ? undefined : CHECKPOINT_USAGE;
}

/**
 * `checkpoint list|save|restore|delete` and `copy`, to the text to print:
 * the control plane's answer, which names workspaces by id, never by key.
 */
export async function runCheckpointCommand(
  command: 'checkpoint' | 'copy',
  operands: readonly string[],
  extra: Extra,
  invoke: InvokeCheckpoint,
): Promise<string> {
  if (command === 'copy') {
    const body = typeof extra.checkpoint === 'string' ? { checkpoint: extra.checkpoint } : {};
    return JSON.stringify(await invoke('copyWorkspace', { body }, extra.to as string));
  }
  const [action, name = ''] = operands;
  const answer =
    action === 'save' ? await invoke('saveCheckpoint', { body: { name, overwrite: extra.overwrite === true } })
    : action === 'restore' ? await invoke('restoreCheckpoint', { path: { name } })
    : action === 'delete' ? await invoke('deleteCheckpoint', { path: { name } })
    : await invoke('listCheckpoints', {});
  return JSON.stringify(answer, null, action === 'list' ? 2 : undefined);
}

/** What the commands work on when no sandbox serves the storage: a backend's workspaces and checkpoints. */
export interface CheckpointStorage {
  workspaces: WorkspaceStore;
  checkpoints: CheckpointStore;
}

/**
 * The same commands on the storage itself, when no sandbox serves it (the
 * data directory, its lock held by the caller, or the database): the
 * control plane's own handlers over the backend's workspaces and
 * checkpoints. Failures are thrown as `fail(message)` makes them.
 */
export async function checkpointsOnStorage(
  command: 'checkpoint' | 'copy',
  operands: readonly string[],
  context: { config: Config; extra: Extra; fail: (message: string) => Error },
  { workspaces, checkpoints }: CheckpointStorage,
): Promise<string> {
  const { config, extra, fail } = context;
  const isKey = createKeyMatcher(config.apiKeys);
  const keyOf = (raw: string | undefined, role: KeyRole = 'source'): string => {
    if (raw === undefined) return config.apiKeys[0] as string;
    if (!config.openKeys && !isKey(raw)) throw fail(`${role === 'target' ? '--to' : '--key'} is not one of the configured API keys, so it has no workspace.`);
    return raw;
  };
  const handlers = checkpointHandlers({
    deps: { workspaces, checkpoints, checkPet: createValidators(loadSpec()).schema('/components/schemas/Pet', 'record') },
    keyOf,
    workspaceOf: (raw) => workspaces.idOf(keyOf(raw)),
    summary: (key) => workspaces.use(key, async (store) => ({ workspace: workspaces.idOf(key), ...(await store.summary()) })),
  });
  const key = typeof extra.key === 'string' ? extra.key : undefined;
  const invoke: InvokeCheckpoint = async (operationId, input, targetKey) => {
    const call = { key, target: targetKey, query: {}, path: input.path, body: input.body } as ControlCall<typeof operationId>;
    return (await (handlers[operationId] as (c: typeof call) => unknown)(call)) as ControlResult<typeof operationId>;
  };
  try {
    return await runCheckpointCommand(command, operands, extra, invoke);
  } catch (error) {
    if (error instanceof ApiError || error instanceof StoreError) throw fail(error.message);
    throw error;
  }
}

/** `checkpointsOnStorage` on the data directory (its lock held by the caller). */
export async function checkpointsOnFiles(
  command: 'checkpoint' | 'copy',
  operands: readonly string[],
  context: { config: Config; extra: Extra; err: (text: string) => void; fail: (message: string) => Error },
): Promise<string> {
  const { config } = context;
  const workspaces = await openWorkspaces(config, { ...silentLogger, info: context.err, warn: context.err, error: context.err });
  try {
    const checkpoints = new FileCheckpoints(config.dataFile, { count: config.checkpointCount, bytes: config.checkpointBytes });
    return await checkpointsOnStorage(command, operands, context, { workspaces, checkpoints });
  } finally {
    await workspaces.close();
  }
}
