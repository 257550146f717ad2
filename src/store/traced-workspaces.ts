/**
 * A store's workspaces with a child span of the request under way around
 * each read and write of a workspace (`store.getText`, `store.createText`),
 * whichever backend keeps them: the file's, PostgreSQL's, memory's. Made
 * only when tracing is on (ops/tracing.ts), so that a store without it is
 * handed out as it is and its reads pay nothing.
 */
import type { SpanEnd, Tracing } from '../kernel/tracing.js';
import type { MaybePromise, WorkspaceData, WorkspaceReads, WorkspaceStore } from './backend.js';

/** Where a span's work ends: at once, or when its promise settles; a failure ends it failed and is thrown on. */
function within<T>(end: SpanEnd | undefined, work: () => MaybePromise<T>): MaybePromise<T> {
  if (end === undefined) return work();
  let result: MaybePromise<T>;
  try {
    result = work();
  } catch (error) {
    end(true, error);
    throw error;
  }
  if (!(result instanceof Promise)) {
    end();
    return result;
  }
  return result.then(
    (value) => {
      end();
      return value;
    },
    (error: unknown) => {
      end(true, error);
      throw error;
    },
  );
}

type Span = <T>(name: string, work: () => MaybePromise<T>) => MaybePromise<T>;

/** Runs work in a child span `store.<name>` with `attributes` (the backend, the workspace's id). */
const spanOf =
  (tracing: Pick<Tracing, 'child'>, attributes: Record<string, string>): Span =>
  (name, work) =>
    within(tracing.child(`store.${name}`, attributes), work);

/** A workspace whose reads and writes are each a child span with `attributes` (the backend, the workspace's id). */
function tracedData(data: WorkspaceData, tracing: Pick<Tracing, 'child'>, attributes: Record<string, string>): WorkspaceData {
  const span = spanOf(tracing, attributes);
  const { checkpointInput } = data;
  return {
    page: (limit, status) => span('page', () => data.page(limit, status)),
    get: (id) => span('get', () => data.get(id)),
    getText: (id) => span('getText', () => data.getText(id)),
    createText: (input) => span('createText', () => data.createText(input)) as Promise<Awaited<ReturnType<WorkspaceData['createText']>>>,
    replace: (pets, nextId) => span('replace', () => data.replace(pets, nextId)) as Promise<void>,
    append: (pets, nextId) => span('append', () => data.append(pets, nextId)) as Promise<void>,
    summary: () => span('summary', () => data.summary()),
    exportPieces: () => data.exportPieces(),
    ...(checkpointInput ? { checkpointInput: () => span('checkpointInput', () => checkpointInput.call(data)) as ReturnType<typeof checkpointInput> } : {}),
  };
}

/** A workspace's reads (`WorkspaceStore.reader`), each a child span as `tracedData` makes them. */
function tracedReads(reads: WorkspaceReads, span: Span): WorkspaceReads {
  return {
    page: (limit, status) => span('page', () => reads.page(limit, status)),
    getText: (id) => span('getText', () => reads.getText(id)),
  };
}

/**
 * `store` with each workspace it hands out (`use`, `peek`, `reader`) traced: the
 * request's span gets a child per read and write, named `store.<method>`,
 * with `petstore.store` (`backend`: `file`, `postgresql`, `memory`) and
 * `petstore.workspace` (the workspace's id, never its key).
 */
export function tracedWorkspaces(store: WorkspaceStore, tracing: Pick<Tracing, 'child'>, backend: string): WorkspaceStore {
  const traced = new WeakMap<WorkspaceData, WorkspaceData>();
  const attributes = (key: string) => ({ 'petstore.store': backend, 'petstore.workspace': store.idOf(key) });
  const wrap = (key: string, data: WorkspaceData): WorkspaceData => {
    let made = traced.get(data);
    if (made === undefined) {
      made = tracedData(data, tracing, attributes(key));
      traced.set(data, made);
    }
    return made;
  };
  const { reader } = store;
  return {
    idOf: (key) => store.idOf(key),
    use: (key, work) => store.use(key, (data) => work(wrap(key, data))),
    peek: (key) => {
      const data = store.peek(key);
      return data && wrap(key, data);
    },
    ...(reader ?
      {
        reader: (key: string) => {
          const reads = reader.call(store, key);
          return reads && tracedReads(reads, spanOf(tracing, attributes(key)));
        },
      }
    : {}),
    openIds: () => store.openIds(),
    openCount: () => store.openCount(),
    removedCount: () => store.removedCount(),
    listen: (listener) => store.listen(listener),
    close: () => store.close(),
  };
}
