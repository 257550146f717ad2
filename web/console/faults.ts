import type { ControlBody, ControlResult } from '../../src/control/routes.js';
import type { Console } from './session.js';
import type { LiveView } from './live.js';
import { byId, el, field, fill, say } from './dom.js';

type FaultInput = ControlBody<'addFault'>;
type Fault = ControlResult<'listFaults'>['faults'][number];
type Operation = ControlResult<'listOperations'>['operations'][number];

/** `200` or `200-800` (ms) as the spec's Latency; undefined when empty. */
export function parseLatency(text: string): FaultInput['latencyMs'] {
  if (text === '') return undefined;
  const [min, max] = text.split('-').map((part) => Number(part.trim()));
  if (min === undefined || Number.isNaN(min) || (max !== undefined && Number.isNaN(max)))
    throw new Error(`Latency '${text}' is not a number of ms or a range like 200-800.`);
  return max === undefined ? min : { min, max };
}

/** The fault the form describes: an operation, and any of status, latency, count, rate. */
function faultOf(form: HTMLFormElement): FaultInput {
  const status = field(form, 'status');
  const latencyMs = parseLatency(field(form, 'latency'));
  const count = field(form, 'count');
  const rate = field(form, 'rate');
  return {
    operationId: field(form, 'operationId') as FaultInput['operationId'],
    ...(status ? { status: Number(status) as NonNullable<FaultInput['status']> } : {}),
    ...(latencyMs === undefined ? {} : { latencyMs }),
    ...(count ? { count: Number(count) } : {}),
    ...(rate ? { rate: Number(rate) } : {}),
  };
}

const latencyText = (l: Fault['latencyMs']): string =>
  l === undefined ? ''
  : typeof l === 'number' ? `${l} ms`
  : `${l.min}-${l.max} ms`;

/**
 * The operations of the interface and the statuses a fault may force on
 * each, as the sandbox lists them: the form offers those and nothing else.
 */
function createOperationChoices(app: Console, form: HTMLFormElement, status: HTMLElement): { load(): Promise<void> } {
  const operation = byId<HTMLSelectElement>('fault-operation');
  const statuses = byId<HTMLSelectElement>('fault-status');
  let operations: Operation[] = [];
  const offer = () => {
    const chosen = operations.find((o) => o.operationId === operation.value);
    const kept = field(form, 'status');
    fill(statuses, el('option', { value: '' }, 'none'), ...(chosen?.faultStatuses ?? []).map((s) => el('option', {}, s)));
    if ((chosen?.faultStatuses ?? []).map(String).includes(kept)) statuses.value = kept;
  };
  operation.addEventListener('change', offer);
  return {
    load: async () => {
      try {
        ({ operations } = await app.client().call('listOperations'));
        const chosen = operation.value;
        fill(operation, ...operations.map((o) => el('option', { value: o.operationId }, `${o.operationId} (${o.method} ${o.path})`)));
        if (operations.some((o) => o.operationId === chosen)) operation.value = chosen;
        offer();
      } catch (error) {
        app.fail(status, error);
      }
    },
  };
}

/** The workspace's faults: added from the form, listed (their Applied counts kept current), removed one by one or all. */
export function createFaultsView(app: Console): LiveView & { loadChoices(): Promise<void> } {
  const status = byId('faults-status');
  const form = byId<HTMLFormElement>('fault-form');
  const choices = createOperationChoices(app, form, status);
  let shown = 0;
  const row = (f: Fault) => {
    const remove = el('button', { type: 'button', 'aria-label': `Remove fault ${f.id}` }, 'Remove');
    remove.addEventListener('click', () => {
      app
        .client()
        .call('deleteFault', { path: { faultId: f.id } })
        .then(() => load())
        .catch((error: unknown) => app.fail(status, error));
    });
    const cells = [f.id, f.operationId, f.status ?? '', latencyText(f.latencyMs), f.count ?? 'forever', f.rate ?? 1, f.applied];
    return el('tr', {}, ...cells.map((c) => el('td', {}, c)), el('td', {}, remove));
  };
  const load = async () => {
    try {
      const { faults } = await app.client().call('listFaults');
      shown = faults.length;
      fill(byId('faults-table').querySelector('tbody') as HTMLElement, ...faults.map(row));
    } catch (error) {
      app.fail(status, error);
    }
  };
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    Promise.resolve()
      .then(() => app.client().call('addFault', { body: faultOf(form) }))
      .then((f) => (say(status, `Fault ${f.id} added on ${f.operationId}.`), load()))
      .catch((error: unknown) => app.fail(status, error));
  });
  byId('clear-faults').addEventListener('click', () => {
    app
      .client()
      .call('clearFaults')
      .then((c) => (say(status, `${c.cleared} faults removed.`), load()))
      .catch((error: unknown) => app.fail(status, error));
  });
  // Any request of the workspace may have been counted by a fault, or used one up.
  return { load, loadChoices: choices.load, changedBy: () => shown > 0 };
}
