import type { ControlBody } from '../../src/control/routes.js';
import type { Console } from './session.js';
import { byId, el, field, fill, say } from './dom.js';

type LoadBody = ControlBody<'loadFixture'>;
type Mode = NonNullable<LoadBody['mode']>;

/** A file's text read as a fixture set: an object with `pets` or `generate`, as `GET /export` writes it. */
function fixtureSet(text: string, name: string): LoadBody {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new Error(`${name} is not JSON.`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value) || !('pets' in value || 'generate' in value))
    throw new Error(`${name} is not a fixture set: an object with "pets" or "generate", as an export is.`);
  return value as LoadBody;
}

/** Saves text as a file through a link to a Blob: the token never leaves the page, no URL carries it. */
function download(text: string, name: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
  const link = el('a', { href: url, download: name });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Reset, load a fixture set, upload a fixture file, download an export. */
export function createDataView(app: Console): { load(): Promise<void> } {
  const status = byId('data-status');
  const act = (form: HTMLFormElement, work: () => Promise<string>) =>
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      say(status, 'Working…');
      work()
        .then(async (done) => {
          say(status, done);
          await app.changed();
        })
        .catch((error: unknown) => app.fail(status, error));
    });

  const reset = byId<HTMLFormElement>('reset-form');
  act(reset, async () => {
    const seed = field(reset, 'seed');
    const count = field(reset, 'count');
    const empty = byId<HTMLInputElement>('reset-empty').checked;
    const body = { ...(seed ? { seed: Number(seed) } : {}), ...(count ? { count: Number(count) } : {}), ...(empty ? { empty: true } : {}) };
    const s = await app.client().call('resetWorkspace', { body });
    return `Reset: ${s.count} pets, next id ${s.nextId}.`;
  });

  const loadForm = byId<HTMLFormElement>('load-form');
  act(loadForm, async () => {
    const fixture = field(loadForm, 'fixture');
    const s = await app.client().call('loadFixture', { body: { fixture, mode: field(loadForm, 'mode') as Mode } });
    return `Loaded ${fixture}: ${s.count} pets, next id ${s.nextId}.`;
  });

  const upload = byId<HTMLFormElement>('upload-form');
  act(upload, async () => {
    const file = byId<HTMLInputElement>('upload-file').files?.[0];
    if (!file) throw new Error('Choose a file first.');
    const set = fixtureSet(await file.text(), file.name);
    const s = await app.client().call('loadFixture', { body: { ...set, mode: field(upload, 'mode') as Mode } });
    return `Loaded ${file.name}: ${s.count} pets, next id ${s.nextId}.`;
  });

  byId('export').addEventListener('click', () => {
    app
      .client()
      .text('exportWorkspace')
      .then((text) => {
        download(text, 'petstore-export.json');
        say(status, 'Export downloaded.');
      })
      .catch((error: unknown) => app.fail(status, error));
  });

  const load = async () => {
    try {
      const { fixtures } = await app.client().call('listFixtures');
      fill(byId('load-fixture'), ...fixtures.map((name) => el('option', {}, name)));
    } catch (error) {
      app.fail(status, error);
    }
  };
  return { load };
}
