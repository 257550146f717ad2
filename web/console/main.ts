/**
 * The QA console at /__sandbox/ui: log in with the admin token, then
 * watch and steer the chosen workspace through the documented control
 * plane only, with the same typed client the QA commands use.
 */
import { createCoverageView } from './coverage.js';
import { createDataView } from './data.js';
import { byId, say } from './dom.js';
import { createFaultsView } from './faults.js';
import { createItemsView } from './items.js';
import { createJournalView } from './journal.js';
import { createLiveRefresh } from './live.js';
import { createModeView } from './mode.js';
import { createPetsView } from './pets.js';
import { clientFor, refused, session, type Console } from './session.js';
import { createUnauthenticatedView } from './unauthenticated.js';
import { sentence } from './wording.js';

let token = session.token();
let key: string | undefined;

const app: Console = {
  client: () => clientFor(token ?? '', key),
  key: () => key,
  fail: (target, error) => {
    if (refused(error)) logout('The admin token was refused: log in again.');
    else say(target, sentence(error), true);
  },
  changed: async () => {
    await Promise.all([pets.load(), items.load(), faults.load()]);
  },
};
const pets = createPetsView(app);
const items = createItemsView(app);
const data = createDataView(app);
const mode = createModeView(app);
const faults = createFaultsView(app);
// The pets, the workspaces' counts and the faults' Applied counts follow the journal: no polling.
const live = createLiveRefresh([pets, items, faults]);
const journal = createJournalView(app, (entry) => live.saw(entry));
const unauthenticated = createUnauthenticatedView(app);
const coverage = createCoverageView(app);

function showApp(on: boolean): void {
  byId('login').hidden = on;
  byId('app').hidden = !on;
  byId('logout').hidden = !on;
}

async function enter(): Promise<void> {
  showApp(true);
  journal.start();
  unauthenticated.start();
  await Promise.all([pets.load(), items.load(), data.load(), mode.load(), faults.load(), faults.loadChoices(), coverage.load()]);
}

function logout(message = ''): void {
  session.forget();
  token = null;
  journal.stop();
  unauthenticated.stop();
  live.cancel();
  showApp(false);
  say(byId('login-error'), message, message !== '');
  byId('token').focus();
}

byId<HTMLFormElement>('login-form').addEventListener('submit', (event) => {
  event.preventDefault();
  const input = byId<HTMLInputElement>('token');
  const typed = input.value;
  clientFor(typed, undefined)
    .call('getMode')
    .then(() => {
      session.save(typed);
      token = typed;
      input.value = '';
      say(byId('login-error'), '');
      return enter();
    })
    .catch((error: unknown) => say(byId('login-error'), refused(error) ? 'That is not the admin token.' : sentence(error), true));
});

byId<HTMLFormElement>('workspace-form').addEventListener('submit', (event) => {
  event.preventDefault();
  key = byId<HTMLInputElement>('api-key').value.trim() || undefined;
  live.cancel();
  journal.start();
  void Promise.all([pets.load(), items.load(), faults.load(), coverage.load()]);
});

byId('logout').addEventListener('click', () => logout());

if (token) void enter();
else showApp(false);
