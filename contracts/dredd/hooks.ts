/**
 * Dredd hooks that create the condition each documented response needs, so
 * all nine transactions of spec/openapi.yaml run for real:
 * 401 = no key (or, when the runner asks, the key refused once through the
 * control plane), 400 = an invalid body or query, 404 = an id that does not exist,
 * 200 on getPet = an id made to exist through the control plane (or, on a
 * deployment without one, an id the deployment itself reports).
 * A sandbox in example or dynamic mode stores nothing, so no id is missing
 * there: the 404 is asked for with `Prefer: code=404`, as Prism documents.
 *
 * Dredd ignores `servers` and `security`, so the key is added here.
 * Dredd loads hook files as CommonJS through proxyquire: run-dredd.ts
 * bundles this file (with the control client and the spec checker) first.
 */
import hooks, { type Transaction } from 'hooks';
import { createControlClient } from '../../src/control/client.js';
import type { ControlBody } from '../../src/control/routes.js';
import { createSpecChecker, type SpecChecker } from '../spec-check.js';
import { readSettings, type HookSettings } from './settings.js';
import { retriedOnReset } from './retry-on-reset.js';

/** An id no deployment is expected to hold, for deployments whose ids cannot be listed. */
const FALLBACK_MISSING_ID = 999999999;
const TIMEOUT_MS = 10_000;

/** An operation of the interface, as the control plane's faults name it. */
type OperationId = ControlBody<'addFault'>['operationId'];

/** What beforeAll found out; an existing id is what the deployment reported, whatever its type (the spec check judges that). */
const state: { existingId?: number | string; missingId: number; mode?: string; problem?: string } = { missingId: FALLBACK_MISSING_ID };
let checker: SpecChecker | undefined;

/** The part of Dredd's endpoint before the spec paths, e.g. `/v1`. */
function basePath(t: Transaction): string {
  return t.fullPath.slice(0, t.fullPath.length - t.request.uri.length);
}

function setUri(t: Transaction, uri: string): void {
  const base = basePath(t);
  t.request.uri = uri;
  t.fullPath = `${base}${uri}`;
}

const setPetId = (t: Transaction, id: number | string) => setUri(t, `/pets/${encodeURIComponent(String(id))}`);

/** Makes a pet exist through the control plane (appended: the workspace's other data stays). */
async function prepareWithControlPlane(s: HookSettings & { adminUrl: string }): Promise<void> {
  const control = createControlClient({ origin: s.adminUrl, adminToken: s.adminToken, key: s.key, timeoutMs: TIMEOUT_MS });
  state.mode = (await control.call('getMode')).mode;
  const exported = await control.call('exportWorkspace');
  // A reduce, not Math.max(...ids): a workspace can hold a million pets.
  const id = exported.pets.reduce((max, p) => Math.max(max, p.id + 1), exported.nextId);
  await control.call('loadFixture', { body: { mode: 'append', pets: [{ id, name: 'Dredd', categoryId: 1, status: 'available' }] } });
  state.existingId = id;
  state.missingId = id + 1_000_000;
}

/**
 * The key's next request to the operation answered 401, through the control
 * plane: the same one-time refusal as Pact's `the request has no valid API
 * key`, journaled and counted in the key's workspace, which a request without
 * a key never is. verify removes a refusal the run left unused.
 */
async function refuseKeyOnce(s: HookSettings & { adminUrl: string }, operationId: OperationId): Promise<void> {
  const control = createControlClient({ origin: s.adminUrl, adminToken: s.adminToken, key: s.key, timeoutMs: TIMEOUT_MS });
  await control.call('addFault', { body: { operationId, status: 401, count: 1 } });
}

/** A call of the API under test with the key (`base` ends in the base path, e.g. `/v1`). */
async function apiCall(s: HookSettings, base: string, method: string, path: string, body?: unknown): Promise<unknown> {
  const headers: Record<string, string> = { Authorization: `Bearer ${s.key}` };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const res = await fetch(`${base}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(TIMEOUT_MS),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${base}${path} answered ${res.status}: ${text.slice(0, 200)}`);
  return text ? (JSON.parse(text) as unknown) : undefined;
}

const idOf = (value: unknown): number | string | undefined => {
  const id = (value as { id?: unknown } | null | undefined)?.id;
  return typeof id === 'number' || typeof id === 'string' ? id : undefined;
};

/** Without a control plane, asks the deployment for an id it holds, adding a pet if it holds none. */
async function prepareWithApi(s: HookSettings, base: string): Promise<void> {
  const listed = await apiCall(s, base, 'GET', '/pets?limit=1');
  const first = Array.isArray(listed) ? idOf(listed[0]) : undefined;
  if (first !== undefined) {
    state.existingId = first;
    return;
  }
  const created = idOf(await apiCall(s, base, 'POST', '/pets', { name: 'Dredd', categoryId: 1 }));
  if (created === undefined) throw new Error('the deployment lists no pet and createPet returned no id');
  state.existingId = created;
}

hooks.beforeAll((transactions, done) => {
  const run = async () => {
    const s = readSettings();
    const sample = transactions[0];
    if (!sample) return;
    const base = `${sample.protocol}//${sample.host}:${sample.port}${basePath(sample)}`;
    const adminUrl = s.adminUrl;
    // Once more if a kept-alive connection was closed under the first call: that call never reached the sandbox.
    await retriedOnReset(() => (adminUrl ? prepareWithControlPlane({ ...s, adminUrl }) : prepareWithApi(s, base)));
  };
  run().then(
    () => done(),
    (error: unknown) => {
      state.problem = `could not prepare an existing pet: ${(error as Error).message}`;
      done();
    },
  );
});

/** Sets up the condition of one transaction, from its operation and expected status. */
async function prepare(t: Transaction): Promise<void> {
  const s = readSettings();
  checker ??= createSpecChecker(s.spec);
  const found = await checker.find(t.request.method, t.request.uri);
  const kind = `${found ? found.operationId : '?'} ${t.expected.statusCode}`;
  t.request.headers.Authorization = `Bearer ${s.key}`;
  if (t.expected.statusCode === '401') {
    // Proxy mode passes a request on before any fault applies: there the deployment behind it refuses the missing key.
    const keyed = s.keyedRefusals && found && state.mode !== undefined && state.mode !== 'proxy';
    if (keyed && s.adminUrl) await refuseKeyOnce({ ...s, adminUrl: s.adminUrl }, found.operationId as OperationId);
    else delete t.request.headers.Authorization;
  }
  if (kind === 'listPets 400') setUri(t, '/pets?limit=0');
  if (kind === 'createPet 400') {
    t.request.body = JSON.stringify({ categoryId: 'one', colour: 'brown' });
    delete t.request.headers['Content-Length'];
  }
  if (kind === 'getPet 404') {
    setPetId(t, state.missingId);
    if (state.mode && state.mode !== 'stateful') t.request.headers.Prefer = 'code=404';
  }
  if (kind === 'getPet 200') {
    if (state.problem) t.fail = state.problem;
    else if (state.existingId !== undefined) setPetId(t, state.existingId);
  }
}

hooks.beforeEach((t, done) => {
  prepare(t).then(
    () => done(),
    (error: unknown) => {
      t.fail = `hook error: ${(error as Error).message}`;
      done();
    },
  );
});
