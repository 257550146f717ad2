import type { ControlResult } from '../../src/control/routes.js';
import type { Console } from './session.js';
import { byId, el, say } from './dom.js';

type JournalEntry = ControlResult<'readJournal'>['entries'][number];

/** Entries kept on the page; older ones are dropped from it (the sandbox keeps its own). */
const KEPT = 200;
const BACKLOG = 50;
const RETRY_MS = 2_000;

const bodyText = (body: unknown): string => (body === null || body === undefined ? '(none)' : JSON.stringify(body, null, 2));

const queryText = (query: JournalEntry['query']): string => {
  const pairs = Object.entries(query).flatMap(([k, v]) => (Array.isArray(v) ? v.map((x): [string, string] => [k, x]) : [[k, v] as [string, string]]));
  return pairs.length === 0 ? '' : `?${new URLSearchParams(pairs).toString()}`;
};

/** Why an exchange is not one the interface allows, in one line each (its `specIssues`). */
const issuesText = (e: JournalEntry): string => (e.specIssues ?? []).map((i) => (i.name ? `${i.name}: ${i.message}` : i.message)).join('\n');

/**
 * One entry: a line with time, method, path, status, duration and the
 * spec badge, opening to why it is not in the spec (if so) and its bodies.
 * A 404, 405 or 501 to a request outside the interface is "not in spec":
 * the badge says whether the interface allows the exchange, not whether
 * the sandbox answered well.
 */
function entryItem(e: JournalEntry): HTMLLIElement {
  const summary = el(
    'summary',
    {},
    el('time', { datetime: e.time }, e.time.slice(11, 23)),
    el('span', { class: 'method' }, e.method),
    el('span', { class: 'path' }, e.path + queryText(e.query)),
    el('span', { class: e.status >= 400 ? 'status status-error' : 'status' }, e.status),
    el('span', { class: 'duration' }, `${e.durationMs.toFixed(1)} ms`),
    e.specValid ? el('span', { class: 'badge valid' }, 'spec-valid') : el('span', { class: 'badge invalid', title: issuesText(e) }, 'not in spec'),
  );
  const body = (title: string, value: unknown) => [el('p', {}, el('strong', {}, title)), el('pre', {}, bodyText(value))];
  const why = e.specValid ? [] : [el('p', {}, el('strong', {}, 'Not in the spec because')), el('pre', { class: 'spec-issues' }, issuesText(e))];
  return el('li', { class: 'entry' }, el('details', {}, summary, ...why, ...body('Request body', e.requestBody), ...body('Response body', e.responseBody)));
}

/**
 * The live journal of the chosen workspace: its newest entries, then each
 * new request as the sandbox answers it, read from the control plane's
 * event stream with `fetch()` (which sends the admin token as a header;
 * `EventSource` cannot). Reconnects after a dropped connection.
 */
export function createJournalView(app: Console): { start(): void; stop(): void } {
  const list = byId('journal-entries');
  const state = byId('journal-state');
  let running: AbortController | undefined;

  const add = (entry: JournalEntry) => {
    list.prepend(entryItem(entry));
    while (list.childElementCount > KEPT) list.lastElementChild?.remove();
  };

  const follow = async (signal: AbortSignal) => {
    while (!signal.aborted) {
      list.replaceChildren();
      say(state, 'Connecting…');
      try {
        for await (const event of app.client().events('streamJournal', { query: { limit: BACKLOG } }, { signal })) {
          if (event.event === 'open') say(state, 'Following: new requests appear as they are answered.');
          else if (event.event === 'entry') add(JSON.parse(event.data) as JournalEntry);
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

  byId('clear-journal').addEventListener('click', () => {
    app
      .client()
      .call('clearJournal')
      .then((c) => {
        list.replaceChildren();
        say(state, `Cleared ${c.cleared} entries; following.`);
      })
      .catch((error: unknown) => app.fail(state, error));
  });

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
