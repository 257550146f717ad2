import type { Console } from './session.js';
import { byId, el } from './dom.js';
import { followIntoList, type JournalEntry } from './follow.js';

/** Entries kept on the page, per view; older ones are dropped from it (the sandbox keeps its own). */
export const KEPT = 200;

const bodyText = (body: unknown): string => (body === null || body === undefined ? '(none)' : JSON.stringify(body, null, 2));

export const queryText = (query: JournalEntry['query']): string => {
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
 * new request as the sandbox answers it. Each new request is also handed
 * to `onEntry`, so that the views it changes refresh themselves.
 */
export function createJournalView(app: Console, onEntry: (entry: JournalEntry) => void): { start(): void; stop(): void } {
  return followIntoList(
    app,
    {
      stream: 'streamJournal',
      clear: 'clearJournal',
      list: byId('journal-entries'),
      state: byId('journal-state'),
      clearButton: byId('clear-journal'),
      item: entryItem,
      onLive: onEntry,
    },
    KEPT,
  );
}
