/**
 * /v1 and control-plane calls to a sandbox known by its origin (a child
 * process), that record every create in a PetLedger and check answers
 * against the specs: the shared steps of the storage robustness tests.
 */
import { expect } from 'vitest';
import { controlAt, type Control } from './control-client.js';
import type { CallResult } from './harness.js';
import type { PetLedger } from './pet-ledger.js';
import { type NewPet, type Pet } from './pet-ledger.js';
import { expectSpecValid } from './spec-check.js';

export const ADMIN_TOKEN = 'sandbox-admin';
export const DEFAULT_KEY = 'sandbox-key';

function parse(text: string): unknown {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return text;
  }
}

/** A /v1 call with `Authorization: Bearer <key>`; throws only if the connection fails. */
export async function v1(origin: string, key: string, path: string, init: { method?: string; json?: unknown } = {}): Promise<CallResult> {
  const headers: Record<string, string> = { authorization: `Bearer ${key}` };
  if (init.json !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${origin}/v1${path}`, {
    method: init.method ?? 'GET',
    headers,
    body: init.json === undefined ? undefined : JSON.stringify(init.json),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: parse(text), text };
}

/**
 * POSTs the ledger's next pet (name padded to `nameLength`), checks the
 * answer against the spec and records it: a 201 must echo the pet with a
 * fresh id; anything else means the pet must never be stored.
 */
export async function createPet(origin: string, key: string, ledger: PetLedger, nameLength = 0): Promise<CallResult & { sent: NewPet }> {
  const sent = ledger.next(nameLength);
  const res = await v1(origin, key, '/pets', { method: 'POST', json: sent });
  await expectSpecValid('createPet', res);
  if (res.status === 201) expect(ledger.acknowledge(sent, res.body)).toBeUndefined();
  else ledger.reject(sent);
  return { ...res, sent };
}

/** Checks an Error answer: status, code, and what its message must say; `context` goes into failure messages. */
export function expectError(res: CallResult, status: number, code: string, message?: RegExp, context = ''): void {
  const summary = `${context}${context ? ': ' : ''}${res.status} ${res.text.slice(0, 300)}`;
  expect(res.headers.get('content-type'), summary).toBe('application/json');
  expect(res.body, summary).toEqual({ code, message: expect.any(String) as unknown, status });
  if (message) expect((res.body as { message: string }).message, summary).toMatch(message);
}

/** The checked control client of a child sandbox (admin token `sandbox-admin`). */
export function controlOfChild(origin: string): Control {
  return controlAt(origin, ADMIN_TOKEN);
}

/** A workspace's export: 200, its exact text and its pets. */
export async function exportWorkspace(origin: string, key?: string): Promise<{ text: string; pets: Pet[]; nextId: number }> {
  const res = await controlOfChild(origin)('GET', '/export', key === undefined ? {} : { key });
  expect(res.status, res.text.slice(0, 300)).toBe(200);
  const { pets, nextId } = res.body as { pets: Pet[]; nextId: number };
  return { text: res.text, pets, nextId };
}

/** The Error a refused request must answer: status, code, and what its message must say. */
export interface Refusal {
  status: number;
  code: string;
  message: RegExp;
}

/** A control POST (reset, load) that must be refused as `refusal` says and leave the default workspace's export byte for byte as it was. */
export async function expectRefusedUnchanged(origin: string, path: string, json: unknown, refusal: Refusal): Promise<void> {
  const before = await exportWorkspace(origin);
  expectError(await controlOfChild(origin)('POST', path, { json }), refusal.status, refusal.code, refusal.message, `POST ${path}`);
  expect((await exportWorkspace(origin)).text === before.text, `the refused POST ${path} changed the export`).toBe(true);
}

/** Exports a workspace and checks it against the ledger: every 201 there, field for field; nothing else of the ledger; ids unique. */
export async function expectLedgerKept(origin: string, ledger: PetLedger, key?: string): Promise<void> {
  const { pets } = await exportWorkspace(origin, key);
  expect(ledger.check(pets), `workspace ${key ?? '(default)'} against ledger ${ledger.prefix}`).toEqual([]);
}

/** Lists the first 100 pets through /v1 (checked against the spec) and checks them against the ledger. */
export async function expectListConsistent(origin: string, key: string, ledger: PetLedger): Promise<Pet[]> {
  const res = await v1(origin, key, '/pets?limit=100');
  await expectSpecValid('listPets', res);
  expect(res.status).toBe(200);
  expect(ledger.check(res.body as Pet[], true)).toEqual([]);
  return res.body as Pet[];
}
