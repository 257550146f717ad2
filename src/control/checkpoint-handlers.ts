import type { CheckpointInput, CheckpointStore, WorkspaceData } from '../store/backend.js';
import { parseJson } from '../kernel/json.js';
import { ApiError } from '../kernel/errors.js';
import { echo } from '../kernel/echo.js';
import { beforeWrite } from './before-write.js';
import { exportOf, type ServedItems } from './api-items.js';
import { loadSet, planSet } from './set-load.js';
import type { ControlContext, ControlDeps, HandlerGroup } from './handler-types.js';
import type { ControlBody } from './routes.js';

/**
 * A workspace's export, its summary taken at the same moment. A backend
 * that reads them together (PostgreSQL: one snapshot) does so. The file
 * backend answers both at once and its export generator reads the pets and
 * the next id on its first step: taking that step now, before anything is
 * awaited, keeps a create that lands meanwhile out of both.
 */
async function snapshot(workspace: WorkspaceData): Promise<CheckpointInput> {
  if (workspace.checkpointInput) return workspace.checkpointInput();
  const summary = workspace.summary();
  const { count, nextId } = summary instanceof Promise ? await summary : summary;
  const pieces = workspace.exportPieces();
  if (!(Symbol.iterator in pieces)) return { count, nextId, text: pieces };
  const iterator = pieces[Symbol.iterator]();
  const first = iterator.next();
  function* text(): Generator<string> {
    for (let step = first; !step.done; step = iterator.next()) yield step.value;
  }
  return { count, nextId, text: text() };
}

/** A key's export as a checkpoint keeps it: the pets' snapshot first, then the items of the APIs served by convention. */
async function exported(served: ServedItems | undefined, key: string, workspace: WorkspaceData): Promise<CheckpointInput> {
  const input = await snapshot(workspace);
  return { ...input, text: await exportOf(served, key, input.text) };
}

/** The longest export a copy takes: it is parsed as one string, and V8 caps a string just under 512 MiB. */
const MAX_COPY = 500 * 1024 * 1024;

/** A copy's source export, joined. */
async function joined(pieces: Iterable<string> | AsyncIterable<string>): Promise<string> {
  let text = '';
  for await (const piece of pieces) {
    if (text.length + piece.length > MAX_COPY)
      throw ApiError.of('quota_exceeded', `The workspace's export is larger than ${MAX_COPY} characters, the most a copy takes. Nothing was changed.`);
    text += piece;
  }
  return text;
}

/** What the checkpoint operations need: the control plane's context, or the QA commands' working on the files. */
export interface CheckpointContext extends Omit<ControlContext, 'deps'> {
  deps: Pick<ControlDeps, 'workspaces' | 'checkpoints' | 'checkPet' | 'apiItems'>;
}

/** The checkpoint operations. */
export type CheckpointOperation = 'listCheckpoints' | 'saveCheckpoint' | 'deleteCheckpoint' | 'restoreCheckpoint' | 'copyWorkspace';

/**
 * Named checkpoints (`/checkpoints`) and copies between workspaces
 * (`/copy`). A restore or a copy loads export text the way `POST /load`
 * loads a body: checked against the Pet schema, then one `replace`, all or
 * nothing. Loading an export gives back the same export, byte for byte
 * (next id included), so a restore gives back exactly what was saved.
 */
export function checkpointHandlers({ deps, keyOf, workspaceOf, summary }: CheckpointContext): HandlerGroup<CheckpointOperation> {
  const { workspaces } = deps;
  const store = (): CheckpointStore => {
    if (!deps.checkpoints) throw ApiError.of('not_implemented', "This sandbox's storage keeps no checkpoints.");
    return deps.checkpoints;
  };
  const saved = async (workspace: string, name: string): Promise<string> => {
    const text = await store().read(workspace, name);
    if (text === undefined) throw ApiError.of('not_found', `No checkpoint ${echo(name)} in this workspace.`);
    return text;
  };
  /** Replaces a key's pets (and items) with an export's: checked whole first, then (unless the client has left) written, all or nothing. */
  const load = async (key: string, text: string, signal: AbortSignal | undefined): Promise<void> => {
    let set: unknown;
    try {
      // As written: an int64 categoryId past 2^53 keeps its digits (JSON.parse would round it, and the Pet schema then refuse it).
      set = parseJson(text);
    } catch (error) {
      throw ApiError.of('internal', `A saved export is not JSON (${(error as Error).message}).`);
    }
    await loadSet(deps, key, planSet(set, deps.checkPet, deps.apiItems), 'replace', signal);
  };

  return {
    listCheckpoints: async ({ key }) => {
      const workspace = workspaceOf(key);
      const checkpoints = store();
      return { workspace, checkpoints: await checkpoints.list(workspace), limits: { ...checkpoints.limits } };
    },
    saveCheckpoint: async ({ key, body, signal }) => {
      const { name, overwrite = false } = body as ControlBody<'saveCheckpoint'>;
      const checkpoints = store();
      const k = keyOf(key);
      await beforeWrite(signal);
      return workspaces.use(k, async (workspace) => checkpoints.save(workspaces.idOf(k), name, await exported(deps.apiItems, k, workspace), overwrite));
    },
    deleteCheckpoint: async ({ key, path }) => {
      const workspace = workspaceOf(key);
      if (!(await store().delete(workspace, path.name))) throw ApiError.of('not_found', `No checkpoint ${echo(path.name)} in this workspace.`);
      return { workspace, cleared: 1 };
    },
    restoreCheckpoint: async ({ key, path, signal }) => {
      const k = keyOf(key);
      await load(k, await saved(workspaces.idOf(k), path.name), signal);
      return summary(k);
    },
    copyWorkspace: async ({ key, target, body, signal }) => {
      const from = keyOf(key);
      const to = keyOf(target, 'target');
      const name = body?.checkpoint;
      const text =
        name === undefined ?
          await workspaces.use(from, async (workspace) => joined(await exportOf(deps.apiItems, from, workspace.exportPieces())))
        : await saved(workspaces.idOf(from), name);
      await load(to, text, signal);
      const { count, nextId } = await summary(to);
      return { from: workspaces.idOf(from), to: workspaces.idOf(to), count, nextId };
    },
  };
}
