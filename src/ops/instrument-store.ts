import type { WorkspaceData, WorkspaceStore } from '../store/backend.js';
import { afterSettled } from '../store/settled.js';
import type { Metrics, StoreWrite } from './metrics.js';

/** The catalogue code of a failed write (a StoreFailure's), or `error` for anything else. */
const codeOf = (error: unknown): string => {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^[a-z_]+$/.test(code) ? code : 'error';
};

/**
 * The workspaces of any backend with their writes timed for the metrics:
 * how long each create, replace and append takes to be durable, and which
 * fail. Reads pass straight through. One wrapper per workspace object,
 * made on its first use.
 */
export function instrumentWorkspaces(store: WorkspaceStore, metrics: Pick<Metrics, 'storeWrite'>): WorkspaceStore {
  const wrapped = new WeakMap<WorkspaceData, WorkspaceData>();
  // Chained (afterSettled) rather than an async function: one promise less on every create.
  const timed = <T>(kind: StoreWrite, write: () => Promise<T>): Promise<T> => {
    const start = performance.now();
    return afterSettled(write, (failed, error) => metrics.storeWrite(kind, (performance.now() - start) / 1000, failed ? codeOf(error) : undefined));
  };
  const wrap = (ws: WorkspaceData): WorkspaceData => {
    let w = wrapped.get(ws);
    if (!w) {
      // Passed on only where the backend has it: the checkpoint handler asks whether it does.
      const checkpointInput = ws.checkpointInput?.bind(ws);
      w = {
        ...(checkpointInput ? { checkpointInput } : {}),
        page: (limit, status) => ws.page(limit, status),
        get: (id) => ws.get(id),
        getText: (id) => ws.getText(id),
        summary: () => ws.summary(),
        exportPieces: () => ws.exportPieces(),
        createText: (input) => timed('create', () => ws.createText(input)),
        replace: (pets, nextId) => timed('replace', () => ws.replace(pets, nextId)),
        append: (pets, nextId) => timed('append', () => ws.append(pets, nextId)),
      };
      wrapped.set(ws, w);
    }
    return w;
  };
  return {
    idOf: (key) => store.idOf(key),
    use: (key, work) => store.use(key, (ws) => work(wrap(ws))),
    peek: (key) => {
      const ws = store.peek(key);
      return ws && wrap(ws);
    },
    openIds: () => store.openIds(),
    openCount: () => store.openCount(),
    removedCount: () => store.removedCount(),
    close: () => store.close(),
  };
}
