import type { ControlResult } from '../../src/control/routes.js';
import type { StreamOperationId } from '../../src/control/client.js';
import type { Console } from './session.js';
import { say } from './dom.js';

/** One journal entry as the streams send it. */
export type JournalEntry = ControlResult<'readJournal'>['entries'][number];

/** Entries asked for when a stream opens; the page keeps its own few hundred. */
const BACKLOG = 50;
const RETRY_MS = 2_000;

/** What a view does with a stream: start afresh on each (re)connection, then take each entry. */
export interface StreamView {
  /** The stream (re)connects: its backlog follows, so what was shown goes. */
  restart(): void;
  /** An entry; `live` when it was answered since the stream opened, not one of the backlog sent first. */
  entry(entry: JournalEntry, live: boolean): void;
}

/**
 * Follows a journal's live stream (a workspace's, or the requests without a
 * valid key) with `fetch()`, which sends the admin token as a header
 * (`EventSource` cannot), and reconnects after a dropped connection,
 * resumed after the last entry shown (`lastEventId`): what was answered
 * meanwhile comes then, nothing twice. `state` says whether it follows.
 */
export function createFollower(app: Console, operationId: StreamOperationId, state: HTMLElement, view: StreamView): { start(): void; stop(): void } {
  let running: AbortController | undefined;

  const follow = async (signal: AbortSignal) => {
    // The id of the last entry shown: a reconnection resumes after it, and the list stays.
    let last: string | undefined;
    while (!signal.aborted) {
      if (last === undefined) view.restart();
      say(state, last === undefined ? 'Connecting…' : 'Reconnecting…');
      try {
        // The open event says how many entries of the backlog come first: the views they changed were loaded already.
        let backlog = 0;
        const query = last === undefined ? { limit: BACKLOG } : { lastEventId: last };
        for await (const event of app.client().events(operationId, { query }, { signal })) {
          if (event.event === 'open') {
            // Entries replayed after a reconnection were answered while it was away: the views they change are stale.
            backlog = last === undefined ? (JSON.parse(event.data) as { backlog: number }).backlog : 0;
            say(state, 'Following: new requests appear as they are answered.');
          } else if (event.event === 'gap') say(state, 'Following again; some requests answered while disconnected were dropped from the journal.', true);
          else if (event.event === 'entry' && !(last !== undefined && event.id !== undefined && Number(event.id) <= Number(last))) {
            last = event.id ?? last;
            view.entry(JSON.parse(event.data) as JournalEntry, backlog-- <= 0);
          }
        }
      } catch (error) {
        if (signal.aborted) return;
        app.fail(state, error);
        if (running?.signal !== signal) return;
      }
      say(state, 'Disconnected; reconnecting…', true);
      await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
    }
  };

  const stop = () => {
    running?.abort();
    running = undefined;
  };
  return {
    start: () => {
      stop();
      running = new AbortController();
      void follow(running.signal);
    },
    stop,
  };
}

/** A followed journal shown as a list, newest first, with a Clear button. */
export interface FollowedList {
  /** The stream to follow and the operation that clears that journal. */
  stream: StreamOperationId;
  clear: 'clearJournal' | 'clearUnauthenticatedJournal';
  /** The list's element, the follower's state line and the Clear button's id. */
  list: HTMLElement;
  state: HTMLElement;
  clearButton: HTMLElement;
  /** The list item of an entry. */
  item(entry: JournalEntry): HTMLElement;
  /** Hears of each live entry (not those of the backlog). */
  onLive?(entry: JournalEntry): void;
}

/** Follows a journal into a list of at most `kept` items, newest first; Clear empties the journal and the list. */
export function followIntoList(app: Console, view: FollowedList, kept: number): { start(): void; stop(): void } {
  const follower = createFollower(app, view.stream, view.state, {
    restart: () => view.list.replaceChildren(),
    entry: (entry, live) => {
      view.list.prepend(view.item(entry));
      while (view.list.childElementCount > kept) view.list.lastElementChild?.remove();
      if (live) view.onLive?.(entry);
    },
  });
  view.clearButton.addEventListener('click', () => {
    app
      .client()
      .call(view.clear)
      .then((c) => {
        view.list.replaceChildren();
        say(view.state, `Cleared ${c.cleared} entries; following.`);
      })
      .catch((error: unknown) => app.fail(view.state, error));
  });
  return follower;
}
