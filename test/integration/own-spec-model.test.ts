/**
 * The conventions against a plain model of them: random sequences of
 * creates, reads, replaces, merges, deletes and lists, sent to a library
 * sandbox in process (on the run's store) serving the inventory API, and
 * applied to a Map. After each step the answer must be the model's, and
 * every answer keeps the spec (the independent checker, through `send`).
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, type PetstoreSandbox } from '../../src/index.js';
import { libraryStore } from '../support/harness.js';
import { INVENTORY, PETSTORE_11, servedApi } from '../support/own-spec.js';

type Item = Record<string, unknown> & { id: string };

let sandbox: PetstoreSandbox;

beforeAll(async () => {
  sandbox = await createSandbox({ spec: [PETSTORE_11, INVENTORY], store: await libraryStore(), count: 3, options: { 'open-keys': true } });
}, 60_000);

afterAll(() => sandbox?.close());

const CATEGORIES = ['tools', 'parts', 'paint'] as const;
const newItem = fc.record(
  {
    name: fc.string({ minLength: 1, maxLength: 20 }).filter((s) => s.trim() !== ''),
    sku: fc.tuple(fc.stringMatching(/^[A-Z]{3}$/), fc.integer({ min: 0, max: 9999 })).map(([a, n]) => `${a}-${String(n).padStart(4, '0')}`),
    category: fc.constantFrom(...CATEGORIES),
    price: fc.integer({ min: 0, max: 100_000 }).map((cents) => cents / 100),
    inStock: fc.boolean(),
  },
  { requiredKeys: ['name', 'sku', 'category'] },
);
const patch = fc.record({ name: fc.string({ minLength: 1, maxLength: 20 }), price: fc.constant(null), inStock: fc.boolean() }, { requiredKeys: [] });

type Step =
  | { kind: 'create'; item: Record<string, unknown> }
  | { kind: 'read'; pick: number }
  | { kind: 'delete'; pick: number }
  | { kind: 'replace'; pick: number; item: Record<string, unknown> }
  | { kind: 'patch'; pick: number; patch: Record<string, unknown> }
  | { kind: 'list'; category: (typeof CATEGORIES)[number] | undefined; limit: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('create' as const), item: newItem }),
  fc.record({ kind: fc.constant('read' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('delete' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('replace' as const), pick: fc.nat(), item: newItem }),
  fc.record({ kind: fc.constant('patch' as const), pick: fc.nat(), patch }),
  fc.record({
    kind: fc.constant('list' as const),
    category: fc.option(fc.constantFrom(...CATEGORIES), { nil: undefined }),
    limit: fc.oneof(fc.integer({ min: 1, max: 6 }), fc.constant(50)),
  }),
);

/** The conventions' merge: `null` removes, anything else replaces. */
const merged = (item: Item, change: Record<string, unknown>): Item => {
  const next: Record<string, unknown> = { ...item };
  for (const [name, value] of Object.entries(change)) {
    if (value === null) delete next[name];
    else next[name] = value;
  }
  return next as Item;
};

describe('the conventions against a model', () => {
  it('answer every random sequence as a Map of items would', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(step, { maxLength: 25 }), async (steps) => {
        // A fresh workspace each run: an open key of its own, seeded alike.
        const key = `model-run-${++run}-${Date.now()}`;
        const api = servedApi((input, init) => sandbox.fetch(input as string, init), '', '/api/v2', INVENTORY);
        const send = (path: string, init: Parameters<typeof api.send>[1] = {}) => api.send(path, { apiKey: key, ...init });
        const model = new Map<string, Item>();
        for (const item of (await send('/items?limit=50')).body as Item[]) model.set(item.id, item);
        expect(model.size).toBe(3);
        // An id of the model's (in its order), or one it never had.
        const idAt = (pick: number): string => [...model.keys()][pick % (model.size + 1)] ?? '00000000-0000-4000-8000-000000000000';
        for (const s of steps) {
          if (s.kind === 'create') {
            const created = await send('/items', { json: s.item });
            expect(created.status).toBe(201);
            expect(created.body).toMatchObject({ ...s.item, inStock: s.item.inStock ?? true });
            model.set(created.body.id as string, created.body as Item);
          } else if (s.kind === 'list') {
            const query = `?limit=${s.limit}${s.category ? `&category=${s.category}` : ''}`;
            const expected = [...model.values()].filter((i) => s.category === undefined || i.category === s.category).slice(0, s.limit);
            expect((await send(`/items${query}`)).body).toEqual(expected);
          } else {
            const id = idAt(s.pick);
            const had = model.get(id);
            const init =
              s.kind === 'read' ? {}
              : s.kind === 'delete' ? { method: 'DELETE' }
              : s.kind === 'replace' ? { method: 'PUT', json: s.item }
              : { method: 'PATCH', json: s.patch, headers: { 'content-type': 'application/merge-patch+json' } };
            const answer = await send(`/items/${id}`, init);
            if (!had) {
              expect(answer.status).toBe(404);
              continue;
            }
            if (s.kind === 'read') expect(answer.body).toEqual(had);
            if (s.kind === 'delete') {
              expect(answer.status).toBe(204);
              model.delete(id);
            }
            if (s.kind === 'replace' || s.kind === 'patch') {
              expect(answer.status).toBe(200);
              // A replace keeps the server's own (readOnly) fields, and makes those the item lacked, as a create does.
              const createdAt = had.createdAt ?? expect.any(String);
              const replaced = s.kind === 'replace' ? { id, ...s.item, inStock: s.item.inStock ?? true, createdAt } : merged(had, s.patch);
              expect(answer.body).toEqual(expect.objectContaining(replaced));
              model.set(id, answer.body as Item);
            }
          }
        }
      }),
      { numRuns: 25 },
    );
  }, 240_000);
});
