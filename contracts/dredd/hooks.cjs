'use strict';
/**
 * Dredd hooks that create the condition each documented response needs, so
 * all nine transactions of spec/openapi.yaml run for real:
 * 401 = no key, 400 = an invalid body or query, 404 = an id that does not exist,
 * 200 on getPet = an id made to exist through the control plane (or, on a
 * deployment without one, an id the deployment itself reports).
 * A sandbox in example or dynamic mode stores nothing, so no id is missing
 * there: the 404 is asked for with `Prefer: code=404`, as Prism documents.
 *
 * Dredd ignores `servers` and `security`, so the key is added here.
 * Settings come from the environment because Dredd loads this file itself:
 *   PETSTORE_CONTRACT_KEY          API key (required)
 *   PETSTORE_CONTRACT_ADMIN_URL    origin serving /__sandbox (optional)
 *   PETSTORE_CONTRACT_ADMIN_TOKEN  its admin token (default sandbox-admin)
 */
const hooks = require('hooks');
const { findOperation } = require('./spec-check.cjs');
const { adminCall, apiCall } = require('./http.cjs');

/** An id no deployment is expected to hold, for deployments whose ids cannot be listed. */
const FALLBACK_MISSING_ID = 999999999;

const state = { existingId: undefined, missingId: FALLBACK_MISSING_ID, mode: undefined, problem: undefined };

function settings() {
  const key = process.env.PETSTORE_CONTRACT_KEY;
  if (!key) throw new Error('PETSTORE_CONTRACT_KEY is not set: the Dredd hooks need the API key.');
  const adminUrl = process.env.PETSTORE_CONTRACT_ADMIN_URL || undefined;
  return { key, adminUrl, adminToken: process.env.PETSTORE_CONTRACT_ADMIN_TOKEN || 'sandbox-admin' };
}

/** The part of Dredd's endpoint before the spec paths, e.g. `/v1`. */
function basePath(t) {
  return t.fullPath.slice(0, t.fullPath.length - t.request.uri.length);
}

/** Makes a pet exist through the control plane (appended: the workspace's other data stays). */
async function prepareWithControlPlane(s) {
  state.mode = (await adminCall(s, 'GET', '/__sandbox/mode')).mode;
  const exported = await adminCall(s, 'GET', '/__sandbox/export');
  // A reduce, not Math.max(...ids): a workspace can hold a million pets.
  const id = exported.pets.reduce((max, p) => Math.max(max, p.id + 1), exported.nextId);
  await adminCall(s, 'POST', '/__sandbox/load', { mode: 'append', pets: [{ id, name: 'Dredd', categoryId: 1, status: 'available' }] });
  state.existingId = id;
  state.missingId = id + 1_000_000;
}

/** Without a control plane, asks the deployment for an id it holds, adding a pet if it holds none. */
async function prepareWithApi(s, base) {
  const listed = await apiCall(s, base, 'GET', '/pets?limit=1');
  if (Array.isArray(listed) && listed[0] && listed[0].id !== undefined) {
    state.existingId = listed[0].id;
    return;
  }
  const created = await apiCall(s, base, 'POST', '/pets', { name: 'Dredd', categoryId: 1 });
  if (!created || created.id === undefined) throw new Error('the deployment lists no pet and createPet returned no id');
  state.existingId = created.id;
}

hooks.beforeAll((transactions, done) => {
  const run = async () => {
    const s = settings();
    const sample = transactions[0];
    const base = `${sample.protocol}//${sample.host}:${sample.port}${basePath(sample)}`;
    if (s.adminUrl) await prepareWithControlPlane(s);
    else await prepareWithApi(s, base);
  };
  run().then(
    () => done(),
    (error) => {
      state.problem = `could not prepare an existing pet: ${error.message}`;
      done();
    },
  );
});

hooks.beforeEach((t, done) => {
  const run = async () => {
    const { key } = settings();
    const found = await findOperation(t.request.method, t.request.uri);
    const kind = `${found ? found.op.operationId : '?'} ${t.expected.statusCode}`;
    t.request.headers.Authorization = `Bearer ${key}`;
    if (t.expected.statusCode === '401') delete t.request.headers.Authorization;
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
      else setPetId(t, state.existingId);
    }
  };
  run().then(
    () => done(),
    (error) => {
      t.fail = `hook error: ${error.message}`;
      done();
    },
  );
});

function setPetId(t, id) {
  setUri(t, `/pets/${encodeURIComponent(String(id))}`);
}

function setUri(t, uri) {
  const base = basePath(t);
  t.request.uri = uri;
  t.fullPath = `${base}${uri}`;
}
