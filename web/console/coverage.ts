import type { ControlResult } from '../../src/control/routes.js';
import type { Console } from './session.js';
import { byId, el, fill, say } from './dom.js';

type Coverage = ControlResult<'readCoverage'>;

/** Every status some operation documents, in order: the table's columns. */
/** `1 request`, `2 requests`: a count with its noun. */
const plural = (count: number, one: string): string => `${count} ${count === 1 ? one : `${one}s`}`;

const columnsOf = (c: Coverage): number[] => [...new Set(c.operations.flatMap((op) => op.statuses.map((s) => s.status)))].sort((a, b) => a - b);

/** One operation's row: its count under each status it documents (a dash where it documents none), then what it answered beyond them. */
function operationRow(op: Coverage['operations'][number], columns: readonly number[]): HTMLTableRowElement {
  const cells = columns.map((status) => {
    const documented = op.statuses.find((s) => s.status === status);
    if (!documented) return el('td', { class: 'not-documented', title: `${op.operationId} documents no ${status}` }, '—');
    return el('td', documented.count === 0 ? { class: 'unexercised', title: 'never exercised' } : {}, documented.count);
  });
  const beyond = op.undocumented.map((s) => `${s.status}: ${s.count}`).join(', ');
  return el(
    'tr',
    { 'data-operation': op.operationId },
    el('th', { scope: 'row' }, op.operationId, op.deprecated ? el('span', { class: 'badge invalid' }, 'deprecated') : null),
    el('td', { class: 'path' }, `${op.method} ${op.path}`),
    ...cells,
    el('td', { class: beyond ? 'undocumented' : '' }, beyond),
  );
}

/**
 * The API coverage of the chosen workspace (docs/coverage.md): a table of
 * operations × documented statuses with their requests, what fell outside
 * the interface, and the deprecated operation's calls with its `Sunset`.
 * Fetched when the workspace is opened and on "Refresh".
 */
export function createCoverageView(app: Console): { load(): Promise<void> } {
  const state = byId('coverage-state');
  const table = byId<HTMLTableElement>('coverage-table');
  const load = async () => {
    try {
      const c = await app.client().call('readCoverage', { query: { format: 'json' } });
      const columns = columnsOf(c);
      const { answers, exercised, percent } = c.documented;
      say(state, `${exercised} of ${answers} documented answers exercised (${percent}%), from ${plural(c.requests, 'request')}.`);
      fill(
        table.tHead?.rows[0] as HTMLTableRowElement,
        el('th', { scope: 'col' }, 'Operation'),
        el('th', { scope: 'col' }, 'Request'),
        ...columns.map((s) => el('th', { scope: 'col' }, s)),
        el('th', { scope: 'col' }, 'Undocumented'),
      );
      fill(table.tBodies[0] as HTMLTableSectionElement, ...c.operations.map((op) => operationRow(op, columns)));
      const unmatched = c.unmatched.statuses.map((s) => `${s.status}: ${s.count}`).join(', ');
      const deprecated = c.deprecated.map((d) => `${d.operationId}: ${plural(d.calls, 'call')}, removal announced for ${d.sunsetDate} (Sunset: ${d.sunset})`);
      fill(
        byId('coverage-outside'),
        el('li', { id: 'coverage-unmatched' }, `Requests that matched no operation: ${c.unmatched.requests}${unmatched ? ` (${unmatched})` : ''}`),
        ...deprecated.map((d) => el('li', { class: 'coverage-deprecated' }, d)),
      );
    } catch (error) {
      app.fail(state, error);
    }
  };
  byId('coverage-refresh').addEventListener('click', () => void load());
  return { load };
}
