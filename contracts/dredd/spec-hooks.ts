/**
 * Dredd hooks for a spec the sandbox was loaded with (`verify --spec`):
 * the condition of each documented response, from the plan verify wrote
 * (spec-plan.ts), with nothing known of the API beforehand.
 *
 * Every request carries the key where the operation's security scheme puts
 * it. A 401 goes without it (or, when the runner asks, with it, refused
 * once through the control plane), a 400 with a body or a query value of
 * the wrong type, a 404 on an item path with an id no item has, and a 2xx
 * on an item path with the id of an item the collection lists (made first
 * if it lists none), read afresh before each transaction: Dredd runs them
 * in the spec's order, and a `DELETE` removes the item it was given. A
 * response that no request from outside can bring about (a 409, a 5xx) is
 * skipped, with the reason in the report.
 */
import hooks, { type Transaction } from 'hooks';
import { readFileSync } from 'node:fs';
import { createControlClient } from '../../src/control/client.js';
import type { ControlBody } from '../../src/control/routes.js';
import { readSettings, skipReasons, transactionName, type HookSettings } from './settings.js';
import type { Credential, OperationPlan } from './spec-operation.js';
import type { SpecPlan } from './spec-plan.js';
import { retriedOnReset } from './retry-on-reset.js';

const TIMEOUT_MS = 10_000;

let plan: (OperationPlan & { pattern: RegExp })[] | undefined;

/** The plan's operations, each with the pattern of its path (its parameters captured). */
function operations(s: HookSettings): (OperationPlan & { pattern: RegExp })[] {
  if (plan) return plan;
  if (!s.plan) throw new Error('the hooks of a loaded spec need its plan');
  const read = JSON.parse(readFileSync(s.plan, 'utf8')) as SpecPlan;
  plan = Object.values(read.operations).map((op) => ({
    ...op,
    pattern: new RegExp(`^${op.template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '([^/]+)')}$`),
  }));
  return plan;
}

/** The part of Dredd's endpoint before the spec's paths, e.g. `/api/v2`. */
const basePath = (t: Transaction) => t.fullPath.slice(0, t.fullPath.length - t.request.uri.length);

function setUri(t: Transaction, uri: string): void {
  const base = basePath(t);
  t.request.uri = uri;
  t.fullPath = `${base}${uri}`;
}

/** The URI with `name=value` added, any value the example gave that parameter dropped. */
function withQuery(uri: string, query: string): string {
  const [path = '', search = ''] = uri.split('?');
  const name = query.slice(0, query.indexOf('=') + 1);
  const kept = search.split('&').filter((pair) => pair !== '' && !pair.startsWith(name));
  return `${path}?${[...kept, query].join('&')}`;
}

/** Puts the key into the request where the credential goes. */
function sendKey(t: Transaction, credential: Credential, key: string): void {
  if (credential.in === 'header') t.request.headers[credential.name] = `${credential.prefix}${key}`;
  else if (credential.in === 'cookie') t.request.headers.Cookie = `${credential.name}=${encodeURIComponent(key)}`;
  else setUri(t, withQuery(t.request.uri, `${encodeURIComponent(credential.name)}=${encodeURIComponent(key)}`));
}

/** The item path with its first parameter set to `id`. */
function withId(t: Transaction, op: OperationPlan & { pattern: RegExp }, id: string): string {
  const [path = '', query] = t.request.uri.split('?');
  let index = 0;
  const values = op.pattern.exec(path)?.slice(1) ?? [];
  const filled = op.template.replace(/\{[^}]+\}/g, () => (index++ === 0 ? encodeURIComponent(id) : (values[index - 1] ?? '')));
  return query === undefined ? filled : `${filled}?${query}`;
}

/** A call of the API with the key, as the credential says; its JSON answer. */
async function call(s: HookSettings, base: string, method: string, path: string, credential?: Credential, body?: string): Promise<unknown> {
  const headers: Record<string, string> = body === undefined ? {} : { 'Content-Type': 'application/json' };
  let url = `${base}${path}`;
  if (credential?.in === 'header') headers[credential.name] = `${credential.prefix}${s.key}`;
  if (credential?.in === 'cookie') headers.Cookie = `${credential.name}=${encodeURIComponent(s.key)}`;
  if (credential?.in === 'query') url = withQuery(url, `${encodeURIComponent(credential.name)}=${encodeURIComponent(s.key)}`);
  const res = await retriedOnReset(() => fetch(url, { method, headers, body, signal: AbortSignal.timeout(TIMEOUT_MS) }));
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${text.slice(0, 200)}`);
  return text ? (JSON.parse(text) as unknown) : undefined;
}

/** The id of an item the collection holds: the first it lists, or one it makes from its `POST`'s example. */
async function existingId(s: HookSettings, t: Transaction, op: OperationPlan): Promise<string> {
  const collection = op.collection;
  if (!collection) throw new Error(`no collection beside ${op.template} lists items to address`);
  const base = `${t.protocol}//${t.host}:${t.port}${basePath(t)}`;
  const idOf = (item: unknown) => (item as Record<string, unknown> | null | undefined)?.[collection.idField];
  const listed = await call(s, base, 'GET', collection.path, collection.credential);
  let id = Array.isArray(listed) ? idOf(listed[0]) : undefined;
  if (id === undefined && collection.createBody !== undefined)
    id = idOf(await call(s, base, 'POST', collection.path, collection.createCredential, collection.createBody));
  if (typeof id !== 'string' && typeof id !== 'number') throw new Error(`GET ${collection.path} lists no item, and none could be made`);
  return String(id);
}

/** The key's next request to the operation refused with a 401, through the control plane. */
async function refuseKeyOnce(s: HookSettings & { adminUrl: string }, operationId: string): Promise<void> {
  const control = createControlClient({ origin: s.adminUrl, adminToken: s.adminToken, key: s.key, timeoutMs: TIMEOUT_MS });
  const fault = { operationId: operationId as ControlBody<'addFault'>['operationId'], status: 401, count: 1 };
  await retriedOnReset(() => control.call('addFault', { body: fault }));
}

/** Why a transaction cannot be run, or undefined when its condition is set up. */
async function prepare(t: Transaction, s: HookSettings): Promise<string | undefined> {
  const bare = t.request.uri.split('?')[0] ?? '';
  const op = operations(s).find((o) => o.method === t.request.method.toUpperCase() && o.pattern.test(bare));
  if (!op) return `no operation of the spec matches ${t.request.method} ${bare}`;
  const status = t.expected.statusCode;
  if (status === '401') {
    if (!op.credential) return `${op.operationId} is open (security: []): no request is refused for its key`;
    // Refused before the item is looked for: the placeholder id serves.
    if (!s.keyedRefusals || !s.adminUrl) return undefined;
    await refuseKeyOnce({ ...s, adminUrl: s.adminUrl }, op.operationId);
    sendKey(t, op.credential, s.key);
    return undefined;
  }
  if (op.credential) sendKey(t, op.credential, s.key);
  if (status === '400') {
    if (!op.invalid) return `${op.operationId} takes no body and no typed query parameter: no request can be made invalid`;
    if (op.invalid.query) setUri(t, withQuery(t.request.uri, op.invalid.query));
    if (op.invalid.body) {
      t.request.body = op.invalid.body;
      delete t.request.headers['Content-Length'];
    }
  } else if (status === '404') {
    if (!op.id) return `${op.operationId} addresses no item: no request can miss one`;
    setUri(t, withId(t, op, op.id.missing));
    return undefined;
  } else if (!/^2\d\d$/.test(status)) {
    return `no request from outside makes ${op.operationId} answer ${status}`;
  }
  if (op.id) setUri(t, withId(t, op, await existingId(s, t, op)));
  return undefined;
}

hooks.beforeEach((t, done) => {
  const s = readSettings();
  prepare(t, s).then(
    (reason) => {
      if (reason !== undefined) {
        t.skip = true;
        skipReasons().set(transactionName(t), reason);
      }
      done();
    },
    (error: unknown) => {
      t.fail = `hook error: ${(error as Error).message}`;
      done();
    },
  );
});
