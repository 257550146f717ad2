import { EventStream, type SentEvent } from './event-stream.js';
import { ApiError } from '../kernel/errors.js';
import type { ControlContext, HandlerGroup } from './handler-types.js';
import type { JournalStore } from '../store/backend.js';
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
  const stream = (id: string, open: object, limit: number | undefined, after: number | undefined) => liveTail(journal, id, open, limit, after);
  return {
    readJournal: async ({ key, query }) => {
      const workspace = workspaceOf(key);
      return { workspace, ...(await read(workspace, query.limit)) };
    },
    clearJournal: async ({ key }) => {
      const workspace = workspaceOf(key);
      return { workspace, cleared: await journal.clear(workspace) };
    },
    streamJournal: async ({ key, query, lastEventId }) => {
      const workspace = workspaceOf(key);
      return stream(workspace, { workspace }, query.limit, resumeAfter(lastEventId ?? query.lastEventId));
    },
    readUnauthenticatedJournal: ({ query }) => read(UNAUTHENTICATED, query.limit),
    streamUnauthenticatedJournal: ({ query, lastEventId }) => stream(UNAUTHENTICATED, {}, query.limit, resumeAfter(lastEventId ?? query.lastEventId)),
    clearUnauthenticatedJournal: async () => ({ cleared: await journal.clear(UNAUTHENTICATED) }),
    exportPact: async ({ key, query }) => {
      const entries = await journal.read(workspaceOf(key), config.journalSize);
      const unauthenticated = query.unauthenticated ? await journal.read(UNAUTHENTICATED, config.journalSize) : [];
      return recordPact({ consumer: query.consumer as string, entries, unauthenticated, version: deps.version });
    },
  };
}

/** Where a stream resumes: the id in `Last-Event-ID` (or `lastEventId`), digits the spec has checked, within what a number holds exactly. */
function resumeAfter(lastEventId: string | undefined): number | undefined {
  if (lastEventId === undefined) return undefined;
  const after = Number(lastEventId);
  if (!Number.isSafeInteger(after))
    throw ApiError.of('invalid_request', `Last-Event-ID must be an entry id the stream sent (at most ${Number.MAX_SAFE_INTEGER}).`);
  return after;
}

/**
 * A journal's live tail: the `open` event (saying how many entries of the
 * backlog follow), a `gap` event when entries after `after` were dropped,
 * the backlog (the entries after `after`, or else the newest `limit`),
 * then each new one. The journal is followed before it is read: an entry
 * told meanwhile is held, and sent after the backlog unless the backlog
 * had it, so nothing falls between them and nothing comes twice.
 */
async function liveTail(journal: JournalStore, id: string, open: object, limit: number | undefined, after: number | undefined): Promise<EventStream> {
  let held: SentEvent[] = [];
  let send: ((event: SentEvent) => void) | undefined;
  const stop = journal.follow(id, (data, entryId) => (send ?? ((e: SentEvent) => held.push(e)))({ event: 'entry', id: entryId, data }));
  // Read even with nothing to replay: the stream opens once the journal is followed (on PostgreSQL, once the tail
  // knows the seq it starts after), so every entry answered after `open` is on it.
  const since = await Promise.resolve(journal.since(id, after ?? (limit ? -1 : Number.MAX_SAFE_INTEGER))).catch((error: unknown) => {
    stop();
    throw error;
  });
  const backlog = after === undefined ? since.entries.slice(-(limit ?? 0)) : since.entries;
  const seen = backlog.at(-1)?.id ?? after ?? -1;
  const first: SentEvent[] = [{ event: 'open', data: { ...open, backlog: backlog.length } }];
  if (after !== undefined && since.gap) first.push({ event: 'gap', data: { lastEventId: after, firstId: backlog[0]?.id ?? null } });
  for (const { id: entryId, entry } of backlog) first.push({ event: 'entry', id: entryId, data: entry });
  return new EventStream(first, (sendOn) => {
    // Ids only go up on a stream: an entry at or below the last one sent (the backlog had it) is not sent again.
    let last = seen;
    const onward = (event: SentEvent) => {
      if ((event.id ?? 0) <= last) return;
      last = event.id ?? last;
      sendOn(event);
    };
    held.forEach(onward);
    held = [];
    send = onward;
    return stop;
  });
}
