/**
 * The differential's case of an API served by convention: the inventory of
 * test/specs/inventory-v2.yaml at /api/v2 (an API key in X-Api-Key, UUID
 * ids, a JSON Merge Patch, `{error, detail}` errors), sent to every way in
 * as the Pet Store's corpus is. What a create makes is new in each sandbox
 * (a random UUID, the time now): `normaliseMade` numbers the UUIDs in the
 * order they first appear and replaces the times, as `normaliseJournal`
 * does a journal's, and everything else must agree byte for byte.
 */
import { KEY } from '../harness.js';
import { INVENTORY } from '../own-spec.js';
import { b64, type Case } from './cases.js';
import type { Run } from './compare.js';
import type { SandboxOptions } from './ways.js';

/** A sandbox serving the inventory alone, five items seeded from --seed. */
export const SPEC_OPTIONS: SandboxOptions = { seed: 1, count: 5, options: { 'journal-size': 1000 }, spec: [INVENTORY] };

const apiKey = { 'x-api-key': KEY };
const item = { name: 'Hammer', sku: 'HAM-0001', category: 'tools', price: 12.5 };

const call = (name: string, method: string, path: string, headers: Record<string, string> = apiKey, body?: unknown): Case => ({
  name,
  method,
  target: `/api/v2${path}`,
  headers,
  ...(body === undefined ? {} : { body: b64(JSON.stringify(body)) }),
});
const json = { ...apiKey, 'content-type': 'application/json' };
const mergePatch = { ...apiKey, 'content-type': 'application/merge-patch+json' };

/** The cases, on two seeded items' ids (the same in every sandbox made with SPEC_OPTIONS). */
export function specCases([first, second]: readonly string[]): Case[] {
  return [
    call('list 200 the seeded items', 'GET', '/items?limit=50'),
    call('create 201', 'POST', '/items', json, item),
    call('list 200 with the created item', 'GET', '/items?limit=50'),
    call('list 200 filtered', 'GET', '/items?category=tools&limit=3'),
    call('get 200', 'GET', `/items/${first}`),
    call('patch 200 merge patch', 'PATCH', `/items/${first}`, mergePatch, { price: null, tags: ['wood'] }),
    call('replace 200', 'PUT', `/items/${first}`, json, { ...item, name: 'Mallet' }),
    call('get 200 after the changes', 'GET', `/items/${first}`),
    call('delete 204', 'DELETE', `/items/${second}`),
    call('get 404 deleted', 'GET', `/items/${second}`),
    call('delete 404 deleted', 'DELETE', `/items/${second}`),
    call('get 401 without a key', 'GET', '/items', {}),
    call('get 401 with a key that is not the sandbox’s', 'GET', '/items', { 'x-api-key': 'not-a-key' }),
    call('create 400 off its schema', 'POST', '/items', json, { ...item, sku: 'hammer' }),
    call('patch 400 off the patch’s schema', 'PATCH', `/items/${first}`, mergePatch, { createdAt: '2026-01-01T00:00:00Z' }),
    call('list 400 limit over its maximum', 'GET', '/items?limit=51'),
    call('health 200 open', 'GET', '/health', {}),
    call('404 a path no operation takes', 'GET', '/nowhere'),
    call('list 200 at the end', 'GET', '/items?limit=50'),
  ];
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
const TIME = /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g;

/** A run with its UUIDs numbered by first appearance (answers, then journals and export) and its times replaced. */
export function normaliseMade(run: Run): Run {
  const ids = new Map<string, string>();
  const made = (text: string) =>
    text
      .replace(UUID, (id) => {
        if (!ids.has(id)) ids.set(id, `<uuid ${ids.size + 1}>`);
        return ids.get(id) ?? id;
      })
      .replace(TIME, '<time>');
  return {
    ...run,
    answers: run.answers.map((answer) => ({ ...answer, body: made(answer.body) })),
    journal: made(run.journal),
    unauthenticated: made(run.unauthenticated),
    export: made(run.export),
  };
}
