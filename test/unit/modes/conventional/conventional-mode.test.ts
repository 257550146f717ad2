/**
 * The conventional mode driven through its ModeHandler, over the real
 * memory item store and the real validators: each role, its refusals, and
 * every success body checked against the spec by the independent checker.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createSpecChecker } from '../../../../contracts/spec-check.js';
import { ApiError } from '../../../../src/kernel/errors.js';
import type { ModeHandler, Reply } from '../../../../src/kernel/operation.js';
import { createConventionalMode, type ConventionalDeps } from '../../../../src/modes/conventional/index.js';
import { inferApi } from '../../../../src/openapi/conventions.js';
import { loadSpec } from '../../../../src/openapi/load-spec.js';
import { operation } from '../../../../src/openapi/spec.js';
import { createValidators } from '../../../../src/openapi/validate.js';
import { MAX_ITEMS_PER_COLLECTION } from '../../../../src/store/items/quota.js';
import type { Item, SeededItems } from '../../../../src/store/items/types.js';
import { createMemoryItemStore } from '../../../../src/store/memory/items.js';
import { createFileItemStore } from '../../../../src/store/file/items.js';
import { WorkspaceIds } from '../../../../src/store/file/workspace-ids.js';
import { tempDir } from '../../../support/harness.js';

const file = (path: string) => fileURLToPath(new URL(`../../../../${path}`, import.meta.url));
const KEY = 'key-a';

interface Call {
  path?: Record<string, string>;
  query?: Record<string, string>;
  body?: unknown;
  key?: string;
}

/** A sandbox of one spec: the mode over a fresh memory store, requests validated as the pipeline does, success bodies checked. */
function sandboxOf(specPath: string, seeded: Record<string, Item[]> = {}, extra: Partial<ConventionalDeps> = {}) {
  const spec = loadSpec(file(specPath));
  const validators = createValidators(spec);
  const checker = createSpecChecker(file(specPath));
  let seeds = 0;
  const seed = (): SeededItems => {
    seeds++;
    return new Map(Object.entries(seeded).map(([name, items]) => [name, items.map((item) => ({ ...item }))]));
  };
  const items = createMemoryItemStore();
  const mode: ModeHandler = createConventionalMode({ api: '/api', spec, model: inferApi(spec), validators, items, seed, ...extra });
  /** The request as the pipeline hands it on: path and query coerced and defaulted, a JSON body validated. */
  const send = async (operationId: string, { path = {}, query = {}, body, key = KEY }: Call = {}): Promise<Reply> => {
    const op = operation(spec, operationId);
    const checks = validators.request(op);
    const checked = [checks.path(path), checks.query(query), checks.body(body)];
    for (const c of checked) if (!c.ok) throw new Error(`the pipeline would refuse ${operationId}: ${JSON.stringify(c.issues)}`);
    const [p, q] = checked.map((c) => (c.ok ? c.value : {})) as Record<string, unknown>[];
    const reply = await mode.handle({ op, key, path: p ?? {}, query: q ?? {}, body, headers: {}, url: '/' });
    if (reply.status !== 204) {
      // The pipeline adds the spec's pinned headers (the deprecated getPet's) to whatever the mode answers.
      const headers = { 'content-type': 'application/json', ...op.responses.get(reply.status)?.fixedHeaders };
      const problems = await checker.problems(await checker.byId(operationId), { status: reply.status, headers, body: reply.body });
      expect(problems, `${operationId} ${reply.status}: ${JSON.stringify(reply.body)}`).toEqual([]);
    } else {
      expect(Object.keys(op.responses.get(204) ?? {})).not.toHaveLength(0);
      expect(reply.body).toBeUndefined();
    }
    return reply;
  };
  /** The refusal of a request, as the mode throws it. */
  const refusal = async (operationId: string, call: Call = {}): Promise<ApiError> => {
    const outcome: unknown = await send(operationId, call).then(
      (reply) => reply,
      (error: unknown) => error,
    );
    expect(outcome).toBeInstanceOf(ApiError);
    return outcome as ApiError;
  };
  return { spec, mode, send, refusal, items, seeds: () => seeds };
}

const orders = (...ids: number[]): Item[] =>
  ids.map((id) => ({ id, petId: id % 2 === 0 ? 7 : 8, quantity: 1, status: id % 3 === 0 ? 'delivered' : 'placed', complete: false }));

describe('the conventional mode on Pet Store 1.1 (integer ids)', () => {
  it('lists in id order, filtered by equality on status and petId, cut at the limit (its default 10 when absent)', async () => {
    const { send } = sandboxOf('test/specs/petstore-1.1.yaml', { '/store/orders': orders(...Array.from({ length: 12 }, (_, i) => 12 - i)) });
    const ids = (reply: Reply) => (reply.body as Item[]).map((o) => o.id);
    expect(ids(await send('listOrders'))).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(ids(await send('listOrders', { query: { limit: '3' } }))).toEqual([1, 2, 3]);
    expect(ids(await send('listOrders', { query: { status: 'delivered' } }))).toEqual([3, 6, 9, 12]);
    expect(ids(await send('listOrders', { query: { status: 'placed', petId: '7', limit: '2' } }))).toEqual([2, 4]);
    expect(ids(await send('listOrders', { query: { petId: '99' } }))).toEqual([]);
  });

  it('creates with the next id after the seeded ones, defaults filled, a sent read-only id ignored; reads it back', async () => {
    const { send } = sandboxOf('test/specs/petstore-1.1.yaml', { '/store/orders': orders(2, 7) });
    const created = await send('placeOrder', { body: { id: 99, petId: 3, quantity: 1 } });
    expect(created).toMatchObject({ status: 201, body: { id: 8, petId: 3, quantity: 1, complete: false } });
    expect(Object.keys(created.body as Item)).toEqual(['id', 'petId', 'quantity', 'complete']);
    expect((await send('placeOrder', { body: { petId: 4, quantity: 2, complete: true } })).body).toMatchObject({ id: 9, quantity: 2, complete: true });
    expect(await send('getOrder', { path: { orderId: '8' } })).toEqual({ status: 200, body: created.body, checked: true });
  });

  it('refuses an item its schema refuses with a 400 naming the field, storing nothing and taking no id', async () => {
    const { send, refusal, mode, spec } = sandboxOf('test/specs/petstore-1.1.yaml', { '/store/orders': orders(1) });
    // The mode checks what it stores itself: a body the pipeline never checked (sent straight to the handler) is refused too.
    const direct = mode.handle({ op: operation(spec, 'placeOrder'), key: KEY, path: {}, query: {}, body: { petId: 0 }, headers: {}, url: '/' });
    await expect(direct).rejects.toMatchObject({ code: 'invalid_request', status: 400, message: "Request body field 'petId' must be >= 1." });
    const list = mode.handle({ op: operation(spec, 'placeOrder'), key: KEY, path: {}, query: {}, body: [{ petId: 1 }], headers: {}, url: '/' });
    await expect(list).rejects.toMatchObject({ code: 'invalid_request', status: 400, message: 'Request body must be a JSON object.' });
    expect((await refusal('getOrder', { path: { orderId: '2' } })).code).toBe('not_found');
    expect(((await send('listOrders')).body as Item[]).map((o) => o.id)).toEqual([1]);
    expect((await send('placeOrder', { body: { petId: 1, quantity: 1 } })).body).toMatchObject({ id: 2 });
  });

  it('answers 404 for an absent item, naming it in the singular', async () => {
    const { refusal } = sandboxOf('test/specs/petstore-1.1.yaml', { '/store/orders': orders(1) });
    const error = await refusal('getOrder', { path: { orderId: '999' } });
    expect(error.toBody()).toEqual({ code: 'not_found', message: 'No order with id 999.', status: 404 });
  });

  it('deletes with the documented 204 and no body; the item is gone, a second delete is a 404, ids are not reused', async () => {
    const { send, refusal } = sandboxOf('test/specs/petstore-1.1.yaml', { '/store/orders': orders(1, 2) });
    expect(await send('cancelOrder', { path: { orderId: '2' } })).toEqual({ status: 204, body: undefined });
    expect((await refusal('getOrder', { path: { orderId: '2' } })).status).toBe(404);
    expect((await refusal('cancelOrder', { path: { orderId: '2' } })).code).toBe('not_found');
    expect((await send('placeOrder', { body: { petId: 1, quantity: 1 } })).body).toMatchObject({ id: 3 });
  });

  it('keeps each workspace apart and seeds each once', async () => {
    const { send, seeds } = sandboxOf('test/specs/petstore-1.1.yaml', { '/store/orders': orders(1) });
    await send('placeOrder', { body: { petId: 1, quantity: 1 } });
    await send('listOrders');
    expect(((await send('listOrders', { key: 'key-b' })).body as Item[]).map((o) => o.id)).toEqual([1]);
    expect(seeds()).toBe(2);
  });

  it(`refuses a create past ${MAX_ITEMS_PER_COLLECTION} items of a collection with a 507, storing nothing`, async () => {
    const full = orders(...Array.from({ length: MAX_ITEMS_PER_COLLECTION }, (_, i) => i + 1));
    const { send, refusal } = sandboxOf('test/specs/petstore-1.1.yaml', { '/store/orders': full });
    expect((await refusal('placeOrder', { body: { petId: 1, quantity: 1 } })).toBody()).toMatchObject({ code: 'quota_exceeded', status: 507 });
    await send('cancelOrder', { path: { orderId: '1' } });
    expect((await send('placeOrder', { body: { petId: 1, quantity: 1 } })).body).toMatchObject({ id: MAX_ITEMS_PER_COLLECTION + 1 });
  });

  it('on the file store, creates made together at the edge of the quota: exactly the room passes, the rest 507', async () => {
    const dataFile = join(tempDir('petstore-items-quota-'), 'db.json');
    const ids = await WorkspaceIds.load(dataFile);
    const items = createFileItemStore({ dataFile, ids });
    const { send, mode, spec } = sandboxOf('test/specs/petstore-1.1.yaml', { '/store/orders': orders(1, 2, 3, 4) }, { items, maxItems: 5 });
    const op = operation(spec, 'placeOrder');
    const place = () => mode.handle({ op, key: KEY, path: {}, query: {}, body: { petId: 1, quantity: 1 }, headers: {}, url: '/' });
    const outcomes = await Promise.allSettled(Array.from({ length: 6 }, place));
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    for (const o of outcomes) if (o.status === 'rejected') expect(o.reason).toMatchObject({ code: 'quota_exceeded', status: 507 });
    expect(((await send('listOrders', { query: { limit: '50' } })).body as Item[]).map((o) => o.id)).toEqual([1, 2, 3, 4, 5]);
    await items.close();
  });
});

describe('the conventional mode on the embedded Pet Store 1.0', () => {
  it('creates a pet from a NewPet with its next id, lists it by status and reads it', async () => {
    const { send } = sandboxOf('spec/openapi.yaml', { '/pets': [{ id: 1, name: 'Rex', categoryId: 1, status: 'sold' }] });
    const created = await send('createPet', { body: { name: 'Tom', categoryId: 2, status: 'available' } });
    expect(created).toEqual({ status: 201, body: { id: 2, name: 'Tom', categoryId: 2, status: 'available' }, checked: true });
    expect((await send('listPets', { query: { status: 'available' } })).body).toEqual([created.body]);
    expect((await send('getPet', { path: { petId: '2' } })).body).toEqual(created.body);
  });
});

const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const NOW = new Date('2026-11-29T06:00:00.000Z');

/** The inventory, with UUIDs counted from 100 and a fixed clock. */
function inventory(seeded: Item[] = []) {
  let next = 100;
  return sandboxOf('test/specs/inventory-v2.yaml', { '/items': seeded }, { newId: () => uuid(next++), now: () => NOW });
}
const hammer = {
  id: uuid(1),
  name: 'Hammer',
  sku: 'TOO-0001',
  category: 'tools',
  price: 12.5,
  inStock: true,
  tags: ['steel'],
  createdAt: '2026-01-01T00:00:00.000Z',
};
const bolt = { id: uuid(2), name: 'Bolt', sku: 'PAR-0002', category: 'parts', inStock: false, createdAt: '2026-01-02T00:00:00.000Z' };
const paint = { id: uuid(3), name: 'Paint', sku: 'PAI-0003', category: 'paint', inStock: true, createdAt: '2026-01-03T00:00:00.000Z' };

describe('the conventional mode on the inventory (UUID ids, merge patch, another error shape)', () => {
  it('creates with a new UUID, the read-only createdAt made now, documented defaults filled, sent read-only fields ignored', async () => {
    const { send } = inventory();
    const body = { id: uuid(9), createdAt: '2000-01-01T00:00:00Z', name: 'Saw', sku: 'TOO-0100', category: 'tools' };
    const created = await send('createItem', { body });
    expect(created).toEqual({
      status: 201,
      body: { id: uuid(100), name: 'Saw', sku: 'TOO-0100', category: 'tools', inStock: true, createdAt: NOW.toISOString() },
      checked: true,
    });
    expect((await send('getItem', { path: { itemId: uuid(100) } })).body).toEqual(created.body);
  });

  it('lists in creation order, filtered by category and by a boolean, cut at the limit', async () => {
    const { send } = inventory([hammer, bolt, paint]);
    const names = (reply: Reply) => (reply.body as Item[]).map((i) => i.name);
    expect(names(await send('listItems'))).toEqual(['Hammer', 'Bolt', 'Paint']);
    expect(names(await send('listItems', { query: { category: 'parts' } }))).toEqual(['Bolt']);
    expect(names(await send('listItems', { query: { inStock: 'true' } }))).toEqual(['Hammer', 'Paint']);
    expect(names(await send('listItems', { query: { inStock: 'true', limit: '1' } }))).toEqual(['Hammer']);
  });

  it('replaces the whole item: the id from the path, read-only fields kept, defaults filled; 404 when absent', async () => {
    const { send, refusal } = inventory([hammer]);
    const replaced = await send('replaceItem', {
      path: { itemId: uuid(1) },
      body: { name: 'Mallet', sku: 'TOO-0009', category: 'tools', createdAt: '2000-01-01T00:00:00Z' },
    });
    expect(replaced).toEqual({
      status: 200,
      body: { id: uuid(1), name: 'Mallet', sku: 'TOO-0009', category: 'tools', inStock: true, createdAt: hammer.createdAt },
      checked: true,
    });
    expect((await send('getItem', { path: { itemId: uuid(1) } })).body).toEqual(replaced.body);
    const absent = await refusal('replaceItem', { path: { itemId: uuid(7) }, body: { name: 'X', sku: 'TOO-0009', category: 'tools' } });
    expect(absent.toBody()).toEqual({ code: 'not_found', message: `No item with id '${uuid(7)}'.`, status: 404 });
  });

  it('merges a patch (RFC 7396): fields changed, null removes one, the rest and the read-only fields kept', async () => {
    const { send } = inventory([hammer]);
    const patched = await send('updateItem', { path: { itemId: uuid(1) }, body: { price: null, tags: null, name: 'Claw hammer', inStock: false } });
    expect(patched).toEqual({
      status: 200,
      body: { id: uuid(1), name: 'Claw hammer', sku: hammer.sku, category: 'tools', inStock: false, createdAt: hammer.createdAt },
      checked: true,
    });
    expect((await send('getItem', { path: { itemId: uuid(1) } })).body).toEqual(patched.body);
  });

  it('refuses a patch its own schema refuses, or whose result the item schema refuses, changing nothing', async () => {
    const { send, refusal, spec } = inventory([hammer]);
    // The merge patch (application/merge-patch+json) is checked against its own schema by the pipeline, as any JSON body is.
    const patchBody = createValidators(spec).request(operation(spec, 'updateItem')).body;
    expect(patchBody({ price: -1 })).toMatchObject({ ok: false, issues: [{ in: 'body', name: 'price' }] });
    // ItemPatch refuses read-only fields (it has no createdAt): refused before they would be dropped.
    expect(patchBody({ createdAt: NOW.toISOString() })).toMatchObject({ ok: false, issues: [{ in: 'body', name: 'createdAt' }] });
    expect(patchBody('price=1')).toMatchObject({ ok: false });
    // ItemPatch has no maximum on price; Item does (10000): the merged item is the mode's to check.
    expect((await refusal('updateItem', { path: { itemId: uuid(1) }, body: { price: 20000 } })).message).toBe("Request body field 'price' must be <= 10000.");
    expect((await refusal('updateItem', { path: { itemId: uuid(5) }, body: { name: 'X' } })).code).toBe('not_found');
    expect((await send('getItem', { path: { itemId: uuid(1) } })).body).toEqual(hammer);
  });

  it("leaves the patch's own schema to the pipeline: a patch ItemPatch refuses but whose merge the item schema takes is merged", async () => {
    const { mode, spec } = inventory([hammer]);
    // ItemPatch has no createdAt (additionalProperties: false): the pipeline refuses it; the mode only drops a read-only field.
    const patched = await mode.handle({
      op: operation(spec, 'updateItem'),
      key: KEY,
      path: { itemId: uuid(1) },
      query: {},
      body: { createdAt: NOW.toISOString(), name: 'Mallet' },
      headers: {},
      url: '/',
    });
    expect(patched).toMatchObject({ status: 200, body: { ...hammer, name: 'Mallet' } });
  });

  it('refuses a replacement the item schema refuses, changing nothing', async () => {
    const { send, mode, spec } = inventory([hammer]);
    const op = operation(spec, 'replaceItem');
    const bad = mode.handle({
      op,
      key: KEY,
      path: { itemId: uuid(1) },
      query: {},
      body: { name: '', sku: 'TOO-0001', category: 'tools' },
      headers: {},
      url: '/',
    });
    await expect(bad).rejects.toMatchObject({
      code: 'invalid_request',
      status: 400,
      message: "Request body field 'name' must NOT have fewer than 1 characters.",
    });
    expect((await send('getItem', { path: { itemId: uuid(1) } })).body).toEqual(hammer);
  });

  it('deletes with 204, then 404', async () => {
    const { send, refusal } = inventory([hammer, bolt]);
    expect(await send('deleteItem', { path: { itemId: uuid(1) } })).toEqual({ status: 204, body: undefined });
    expect((await refusal('getItem', { path: { itemId: uuid(1) } })).code).toBe('not_found');
    expect((await refusal('deleteItem', { path: { itemId: uuid(1) } })).code).toBe('not_found');
    expect(((await send('listItems')).body as Item[]).map((i) => i.name)).toEqual(['Bolt']);
  });

  it('answers every operation of the spec: those without a convention 501 with the reason, or by the fallback', async () => {
    const { mode, refusal } = inventory();
    expect([...mode.operations].sort()).toEqual(['createItem', 'deleteItem', 'getItem', 'health', 'listItems', 'replaceItem', 'restockItem', 'updateItem']);
    const error = await refusal('restockItem', { path: { itemId: uuid(1) } });
    expect(error.toBody()).toMatchObject({ code: 'not_implemented', status: 501 });
    expect(error.message).toMatch(/^restockItem is not served by convention: .*nested resources fit no convention\.$/);
    const fallback: ModeHandler = {
      operations: new Set(),
      handle: (request) => (request.op.operationId === 'health' ? { status: 200, body: { ok: true } } : { status: 202, body: { accepted: true } }),
    };
    const withFallback = sandboxOf('test/specs/inventory-v2.yaml', {}, { fallback });
    expect(await withFallback.send('restockItem', { path: { itemId: uuid(1) } })).toEqual({ status: 202, body: { accepted: true } });
    expect(await withFallback.send('health')).toEqual({ status: 200, body: { ok: true } });
  });
});

describe('an integer-id collection whose path parameter is declared as a string', () => {
  const notes = () => sandboxOf('test/specs/string-path-ids.yaml', { '/notes': [1, 2, 3].map((id) => ({ id, text: `note ${id}` })) });

  it('finds, merges and deletes by the id as stored (a number), only in its plain decimal form', async () => {
    const { send, refusal } = notes();
    expect((await send('getNote', { path: { noteId: '2' } })).body).toEqual({ id: 2, text: 'note 2' });
    expect((await send('updateNote', { path: { noteId: '1' }, body: { text: 'changed' } })).body).toEqual({ id: 1, text: 'changed' });
    expect(await send('deleteNote', { path: { noteId: '3' } })).toEqual({ status: 204, body: undefined });
    for (const noteId of ['3', '02', '2.0', ' 2', 'two', '']) expect((await refusal('getNote', { path: { noteId } })).code).toBe('not_found');
    expect((await send('listNotes')).body).toEqual([
      { id: 1, text: 'changed' },
      { id: 2, text: 'note 2' },
    ]);
  });
});
