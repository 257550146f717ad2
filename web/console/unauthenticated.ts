import type { Console } from './session.js';
import { byId, el } from './dom.js';
import { followIntoList, type JournalEntry } from './follow.js';
import { KEPT, queryText } from './journal.js';

/** The sandbox's explanation in an entry's Error body (why the key was refused), if it has one. */
const reason = (e: JournalEntry): string => {
  const body = e.responseBody as { message?: unknown } | null;
  return typeof body === 'object' && body !== null && typeof body.message === 'string' ? body.message : '';
};

/** One refused request: when, what, the credential it presented (masked by the sandbox), the answer and why. */
const row = (e: JournalEntry): HTMLTableRowElement =>
  el(
    'tr',
    {},
    el('td', {}, el('time', { datetime: e.time }, e.time.slice(11, 23))),
    el('td', { class: 'path' }, `${e.method} ${e.path}${queryText(e.query)}`),
    el('td', {}, el('code', {}, e.credential ?? '')),
    el('td', { class: e.status >= 400 ? 'status-error' : '' }, e.status),
    el('td', {}, reason(e)),
  );

/**
 * The requests sent without a valid API key (none, malformed, unknown): no
 * workspace's journal holds them, so they have a view of their own,
 * followed live from the sandbox's journal of unauthenticated requests. A
 * client that gets 401s shows here, with the masked key it sent.
 */
export function createUnauthenticatedView(app: Console): { start(): void; stop(): void } {
  const view = {
    stream: 'streamUnauthenticatedJournal',
    clear: 'clearUnauthenticatedJournal',
    list: byId('unauthenticated-table').querySelector('tbody') as HTMLElement,
    state: byId('unauthenticated-state'),
    clearButton: byId('clear-unauthenticated'),
    item: row,
  } as const;
  return followIntoList(app, view, KEPT);
}
