import type { ControlBody } from '../../src/control/routes.js';
import type { Console } from './session.js';
import { byId, el, field, fill, say } from './dom.js';

/** The mode /v1 answers in: shown, and switched. */
export function createModeView(app: Console): { load(): Promise<void> } {
  const status = byId('mode-status');
  const form = byId<HTMLFormElement>('mode-form');
  const show = ({ mode, modes }: { mode: string; modes: string[] }) => {
    fill(byId('mode-select'), ...modes.map((m) => el('option', m === mode ? { selected: '' } : {}, m)));
    say(status, `/v1 answers in ${mode} mode.`);
  };
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const mode = field(form, 'mode') as ControlBody<'setMode'>['mode'];
    say(status, `Switching to ${mode}…`);
    app
      .client()
      .call('setMode', { body: { mode } })
      .then(show)
      .catch((error: unknown) => app.fail(status, error));
  });
  return {
    load: () =>
      app
        .client()
        .call('getMode')
        .then(show)
        .catch((error: unknown) => app.fail(status, error)),
  };
}
