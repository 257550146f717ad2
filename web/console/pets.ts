import type { Console } from './session.js';
import type { LiveView } from './live.js';
import { byId, el, fill, field, say } from './dom.js';

/** Pets shown at most; the export holds them all, the table stays quick. */
const SHOWN = 500;
/** Methods that change no pet. */
const READS = ['GET', 'HEAD', 'OPTIONS'];

/** The workspaces of the configured keys, and the chosen workspace's pets (from its export) with the status filter. */
export function createPetsView(app: Console): LiveView {
  const summary = byId('workspace-summary');
  const petsForm = byId<HTMLFormElement>('pets-form');

  const loadWorkspaces = async () => {
    const { workspaces } = await app.client().call('listWorkspaces');
    fill(
      byId('workspaces').querySelector('tbody') as HTMLElement,
      ...workspaces.map((w) => el('tr', {}, el('td', {}, w.workspace), el('td', {}, w.count), el('td', {}, w.nextId))),
    );
  };

  const loadPets = async () => {
    const status = field(petsForm, 'status');
    const [{ workspace }, exported] = await Promise.all([app.client().call('listFaults'), app.client().call('exportWorkspace')]);
    const matching = status === '' ? exported.pets : exported.pets.filter((p) => p.status === status);
    say(summary, `Workspace ${workspace}: ${exported.pets.length} pet${exported.pets.length === 1 ? '' : 's'}, next id ${exported.nextId}.`);
    const rows = matching
      .slice(0, SHOWN)
      .map((p) => el('tr', {}, el('td', {}, p.id), el('td', {}, p.name), el('td', {}, p.categoryId), el('td', {}, p.status ?? '')));
    fill(byId('pets').querySelector('tbody') as HTMLElement, ...rows);
    const shown = matching.length > SHOWN ? `the first ${SHOWN} of ${matching.length}` : String(matching.length);
    byId('pets-caption').textContent = `Pets${status ? ` with status ${status}` : ''}: ${shown}`;
  };

  const load = async () => {
    try {
      await Promise.all([loadWorkspaces(), loadPets()]);
    } catch (error) {
      app.fail(summary, error);
    }
  };
  petsForm.addEventListener('submit', (event) => {
    event.preventDefault();
    void load();
  });
  // A request that may have stored something: the pets and the workspaces' counts change.
  return { load, changedBy: (e) => !READS.includes(e.method) && e.status < 400 };
}
