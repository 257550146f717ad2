import { EventStream } from './event-stream.js';
import type { ControlContext, HandlerGroup } from './handler-types.js';
import { UNAUTHENTICATED } from '../store/journal/journal.js';
import { recordPact } from './pact-record.js';

/** The journals: a workspace's, and the one of requests without a valid key (X-Sandbox-Key does not apply to it); a pact recorded from them. */
export function journalHandlers({
  deps,
  workspaceOf,
}: ControlContext): HandlerGroup<
  | 'readJournal'
  | 'clearJournal'
  | 'streamJournal'
  | 'readUnauthenticatedJournal'
  | 'streamUnauthenticatedJournal'
  | 'clearUnauthenticatedJournal'
  | 'exportPact'
> {
  const { config, journal } = deps;
  const read = async (workspace: string, limit: number | undefined) => ({
    size: config.journalSize,
    memory: await journal.memory(),
    entries: await journal.read(workspace, limit ?? config.journalSize),
  });
  /** A journal's live tail: the `open` event (saying how many entries of the backlog follow), the newest `limit` entries, then each new one. */
  const stream = async (id: string, open: object, limit: number | undefined) => {
    const backlog = limit ? await journal.read(id, limit) : [];
    // Nothing runs between the read above and the follow below but this code (no I/O): no entry falls between them.
    return new EventStream([{ event: 'open', data: { ...open, backlog: backlog.length } }, ...backlog.map((data) => ({ event: 'entry', data }))], (send) =>
      journal.follow(id, (data) => send({ event: 'entry', data })),
    );
  };
  return {
    readJournal: async ({ key, query }) => {
      const workspace = workspaceOf(key);
      return { workspace, ...(await read(workspace, query.limit)) };
    },
    clearJournal: async ({ key }) => {
      const workspace = workspaceOf(key);
      return { workspace, cleared: await journal.clear(workspace) };
    },
    streamJournal: async ({ key, query }) => {
      const workspace = workspaceOf(key);
      return stream(workspace, { workspace }, query.limit);
    },
    readUnauthenticatedJournal: ({ query }) => read(UNAUTHENTICATED, query.limit),
    streamUnauthenticatedJournal: ({ query }) => stream(UNAUTHENTICATED, {}, query.limit),
    clearUnauthenticatedJournal: async () => ({ cleared: await journal.clear(UNAUTHENTICATED) }),
    exportPact: async ({ key, query }) => {
      const entries = await journal.read(workspaceOf(key), config.journalSize);
      const unauthenticated = query.unauthenticated ? await journal.read(UNAUTHENTICATED, config.journalSize) : [];
      return recordPact({ consumer: query.consumer as string, entries, unauthenticated, version: deps.version });
    },
  };
}
