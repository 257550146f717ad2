/**
 * The soak's /v1 traffic, one request (or pair) per call, picked by weight:
 * reads, creates recorded in a ledger, new API keys (each a new workspace
 * under `--open-keys`), journal streams dropped at once, and bad input that
 * must get the error model.
 */
import { ADMIN, expectError, expectStatus, jsonOf, v1, type SoakContext } from './soak-calls.js';
import type { Answer } from './soak-http.js';
import type { LedgerWorkspace } from './soak-ledger.js';

/** The workspaces the traffic uses, and the count of new keys so far. */
export interface Workload {
  /** Creates and reads only; `faulted` is one of them. */
  ledgers: LedgerWorkspace[];
  /** The one workspace that gets injected faults: its requests may be answered 500 or 503. */
  faulted: LedgerWorkspace;
  /** New keys are `<prefix>-<n>`. */
  newKeyPrefix: string;
  newKeys: number;
}

type Op = (ctx: SoakContext, w: Workload) => Promise<void>;

export const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)] as T;

/** What a request on `ws` may answer besides `ok`: the statuses of the faults injected there. */
const allowed = (w: Workload, ws: LedgerWorkspace, ...ok: number[]) => (ws === w.faulted ? [...ok, 500, 503] : ok);

const list: Op = async (ctx, w) => {
  const ws = pick(w.ledgers);
  const path = `/pets${pick(['', '?limit=100', '?status=sold&limit=50', '?status=available'])}`;
  expectStatus(ctx, `GET /v1${path} (${ws.key})`, await v1(ctx, ws.key, 'GET', path), ...allowed(w, ws, 200));
};

const getById: Op = async (ctx, w) => {
  const ws = pick(w.ledgers);
  const id = 1 + Math.floor(Math.random() * 60);
  expectStatus(ctx, `GET /v1/pets/${id} (${ws.key})`, await v1(ctx, ws.key, 'GET', `/pets/${id}`), ...allowed(w, ws, 200, 404));
};

const create: Op = (ctx, w) => {
  const ws = pick(w.ledgers);
  return ws.lease(async (ledger) => {
    const sent = ledger.next();
    const answer = await v1(ctx, ws.key, 'POST', '/pets', sent);
    if (!answer) return void (ws.uncertain += 1);
    if (answer.status !== 201) return void (ledger.reject(sent), expectError(ctx, `POST /v1/pets (${ws.key})`, answer, ...allowed(w, ws)));
    ctx.findings.acknowledged += 1;
    const problem = ledger.acknowledge(sent, jsonOf(ctx, 'POST /v1/pets', answer));
    if (problem) ctx.findings.noteLost([`workspace ${ws.key}: ${problem}`]);
  });
};

/** A key never seen: its workspace is created (and seeded) by the first request. */
const newKey: Op = async (ctx, w) => {
  const key = `${w.newKeyPrefix}-${(w.newKeys += 1)}`;
  ctx.window.newKeys += 1;
  expectStatus(ctx, 'GET /v1/pets (a new key)', await v1(ctx, key, 'GET', '/pets?limit=5'), 200);
  expectStatus(ctx, 'POST /v1/pets (a new key)', await v1(ctx, key, 'POST', '/pets', { name: 'Soak', categoryId: 1 }), 201);
};

/** The live journal, given up after 0 to 40 ms: before its first read, during it, or once it streams. */
const stream: Op = async (ctx, w) => {
  const ws = pick(w.ledgers);
  ctx.window.streams += 1;
  ctx.window.answered();
  const headers = { authorization: ADMIN, 'x-sandbox-key': ws.key, accept: 'text/event-stream' };
  await ctx.http.dropAfter(`/__sandbox/journal/stream?limit=${pick([0, 5, 50])}`, headers, Math.random() * 40);
};

const JUNK = 'x'.repeat(4096);
/** Requests the interface refuses, each with the statuses it may get. */
const BAD: { what: string; statuses: number[]; send: (ctx: SoakContext, key: string) => Promise<Answer | undefined> }[] = [
  { what: 'malformed JSON', statuses: [400], send: (ctx, key) => v1(ctx, key, 'POST', '/pets', '{"name": "x",') },
  { what: 'a 4 KiB body of the wrong type', statuses: [400], send: (ctx, key) => v1(ctx, key, 'POST', '/pets', { name: JUNK, categoryId: 'no' }) },
  { what: 'text/plain', statuses: [415], send: (ctx, key) => v1(ctx, key, 'POST', '/pets', 'hello', { 'content-type': 'text/plain' }) },
  { what: 'limit=0', statuses: [400], send: (ctx, key) => v1(ctx, key, 'GET', '/pets?limit=0') },
  { what: 'no API key', statuses: [401], send: (ctx) => v1(ctx, null, 'GET', '/pets') },
  { what: 'a malformed API key', statuses: [401], send: (ctx) => v1(ctx, 'not a {token}', 'GET', '/pets') },
  { what: 'an unknown path', statuses: [404], send: (ctx, key) => v1(ctx, key, 'GET', '/nothing/here') },
  { what: 'a petId that is not a number', statuses: [400, 404], send: (ctx, key) => v1(ctx, key, 'GET', '/pets/abc') },
  { what: 'DELETE /pets', statuses: [405], send: (ctx, key) => v1(ctx, key, 'DELETE', '/pets') },
];

const badInput: Op = async (ctx, w) => {
  const ws = pick(w.ledgers.filter((l) => l !== w.faulted));
  if (Math.random() < 0.3) {
    // A pet without its categoryId, from the ledger: refused, so it must never be stored.
    return ws.lease(async (ledger) => {
      const pet = ledger.next();
      const sent = { name: pet.name, ...(pet.status ? { status: pet.status } : {}) };
      expectError(ctx, `POST /v1/pets without categoryId (${ws.key})`, await v1(ctx, ws.key, 'POST', '/pets', sent), 400);
      ledger.reject(pet);
    });
  }
  const bad = pick(BAD);
  expectError(ctx, `${bad.what} (${ws.key})`, await bad.send(ctx, ws.key), ...bad.statuses);
};

/** Each kind of request with its weight (its share of the general traffic). */
const OPS: [number, Op][] = [
  [30, list],
  [8, getById],
  [25, create],
  [5, newKey],
  [5, stream],
  [12, badInput],
];
const TOTAL = OPS.reduce((n, [weight]) => n + weight, 0);

/** One request of the general traffic, picked by weight. */
export function runOne(ctx: SoakContext, w: Workload): Promise<void> {
  let roll = Math.random() * TOTAL;
  for (const [weight, op] of OPS) if ((roll -= weight) < 0) return op(ctx, w);
  return list(ctx, w);
}
