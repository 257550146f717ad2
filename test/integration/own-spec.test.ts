/**
 * Two specs served side by side, statefully by convention (`--spec`), over
 * HTTP on the run's store (file, memory or PostgreSQL): the Pet Store 1.1
 * with its orders at /v1, and an inventory API of another shape at /api/v2
 * (an API key in a header, UUID ids, `{error, detail}` errors, PUT, PATCH,
 * DELETE). Every answer is checked against its own spec.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSandbox, type TestSandbox } from '../support/harness.js';
import { INVENTORY, PETSTORE_11, servedApi, type ServedApi } from '../support/own-spec.js';

let sandbox: TestSandbox;
let v1: ServedApi;
let v2: ServedApi;

beforeAll(async () => {
  sandbox = await startTestSandbox(['--spec', PETSTORE_11, '--spec', INVENTORY, '--count', '5', '--api-keys', 'sandbox-key,other-key']);
  v1 = servedApi(fetch, sandbox.origin, '/v1', PETSTORE_11);
  v2 = servedApi(fetch, sandbox.origin, '/api/v2', INVENTORY);
}, 60_000);

afterAll(() => sandbox?.stop());

describe('the Pet Store 1.1 at /v1', { timeout: 60_000 }, () => {
  it('lists the seeded pets and orders, each order naming a seeded pet', async () => {
    const pets = await v1.send('/pets');
    expect(pets.status).toBe(200);
    expect(pets.body.map((p: { id: number }) => p.id)).toEqual([1, 2, 3, 4, 5]);
    const orders = await v1.send('/store/orders');
    expect(orders.body).toHaveLength(5);
    for (const order of orders.body as { petId: number }[]) expect([1, 2, 3, 4, 5]).toContain(order.petId);
  });

  it('places an order: the next id, defaults filled, then read, listed, filtered and cancelled', async () => {
    const placed = await v1.send('/store/orders', { json: { petId: 2, quantity: 3, status: 'approved' } });
    expect(placed.status).toBe(201);
    expect(placed.body).toEqual({ id: 6, petId: 2, quantity: 3, status: 'approved', complete: false });
    expect((await v1.send('/store/orders/6')).body).toEqual(placed.body);
    const approved = await v1.send('/store/orders?status=approved&limit=50');
    expect(approved.body.every((o: { status: string }) => o.status === 'approved')).toBe(true);
    expect(approved.body.map((o: { id: number }) => o.id)).toContain(6);
    expect((await v1.send('/store/orders/6', { method: 'DELETE' })).status).toBe(204);
    const gone = await v1.send('/store/orders/6');
    expect(gone.status).toBe(404);
    expect(gone.body).toEqual({ code: 'not_found', message: expect.stringContaining('6') as string, status: 404 });
  });

  it('refuses what its spec refuses, in its Error shape', async () => {
    const bad = await v1.send('/store/orders', { json: { petId: 2, quantity: 11 } });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: 'invalid_request', status: 400 });
    expect((await v1.send('/store/orders?limit=51')).status).toBe(400);
    const refused = await v1.send('/store/orders', { bearer: null });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toBe('Bearer');
  });

  it("creates and reads pets (the Pet Store's own operations, over the workspace's pets)", async () => {
    const created = await v1.send('/pets', { json: { name: 'Rex', categoryId: 1 } });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ id: 6, name: 'Rex', categoryId: 1 });
    expect((await v1.send('/pets/6')).body).toEqual(created.body);
    expect((await v1.send('/pets/999')).status).toBe(404);
  });
});

describe('the inventory API at /api/v2', { timeout: 60_000 }, () => {
  const item = { name: 'Hammer', sku: 'HAM-0001', category: 'tools', price: 12.5 };

  it('takes its API key in X-Api-Key only, and answers an open operation without one', async () => {
    const refused = await v2.send('/items');
    expect(refused.status).toBe(401);
    expect(Object.keys(refused.body).sort()).toEqual(['detail', 'error']);
    expect((await v2.send('/items', { apiKey: 'sandbox-key' })).status).toBe(200);
    expect((await v2.send('/items', { apiKey: 'not-a-key' })).status).toBe(401);
    expect((await v2.send('/health', { bearer: null })).body).toEqual({ ok: true });
  });

  it("judges a path no operation takes by the document's own security: 401 naming its key without one, else 404", async () => {
    const refused = await v2.send('/nowhere', { bearer: null });
    expect(refused.status).toBe(401);
    expect(refused.body).toEqual({ error: 'unauthorized', detail: 'Missing API key: send X-Api-Key: <API_KEY>.' });
    expect((await v2.send('/nowhere', { apiKey: 'sandbox-key' })).status).toBe(404);
  });

  it('creates with a UUID, then replaces, merges, deletes', async () => {
    const created = await v2.send('/items', { apiKey: 'sandbox-key', json: item });
    expect(created.status).toBe(201);
    const { id } = created.body as { id: string };
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(created.body).toMatchObject({ ...item, inStock: true });
    const replaced = await v2.send(`/items/${id}`, { method: 'PUT', apiKey: 'sandbox-key', json: { ...item, name: 'Mallet' } });
    expect(replaced.body).toMatchObject({ id, name: 'Mallet' });
    const merged = await v2.send(`/items/${id}`, {
      method: 'PATCH',
      apiKey: 'sandbox-key',
      json: { price: null, tags: ['wood'] },
      headers: { 'content-type': 'application/merge-patch+json' },
    });
    expect(merged.status).toBe(200);
    expect(merged.body).not.toHaveProperty('price');
    expect(merged.body).toMatchObject({ id, name: 'Mallet', tags: ['wood'] });
    expect((await v2.send(`/items/${id}`, { method: 'DELETE', apiKey: 'sandbox-key' })).status).toBe(204);
    const gone = await v2.send(`/items/${id}`, { apiKey: 'sandbox-key' });
    expect(gone.status).toBe(404);
    expect(Object.keys(gone.body).sort()).toEqual(['detail', 'error']);
  });

  it("refuses a merge patch its own schema refuses in the pipeline, with the spec's 400, changing nothing", async () => {
    const [first] = (await v2.send('/items', { apiKey: 'sandbox-key' })).body as { id: string }[];
    const merge = { 'content-type': 'application/merge-patch+json' };
    for (const json of [{ createdAt: '2026-01-01T00:00:00Z' }, { price: -1 }, { name: '' }]) {
      const refused = await v2.send(`/items/${first?.id ?? ''}`, { method: 'PATCH', apiKey: 'sandbox-key', json, headers: merge });
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({ error: 'invalid_request', detail: expect.stringContaining('Request body') as string });
    }
    expect((await v2.send(`/items/${first?.id ?? ''}`, { apiKey: 'sandbox-key' })).body).toEqual(first);
  });

  it('filters a list by a property, within its limit', async () => {
    const paint = await v2.send('/items?category=paint&limit=50', { apiKey: 'sandbox-key' });
    expect(paint.body.every((i: { category: string }) => i.category === 'paint')).toBe(true);
    expect((await v2.send('/items?limit=51', { apiKey: 'sandbox-key' })).status).toBe(400);
  });

  it('marks a deprecated operation with Deprecation and Sunset', async () => {
    const [first] = (await v2.send('/items', { apiKey: 'sandbox-key' })).body as { id: string }[];
    const restock = await v2.send(`/items/${first?.id ?? ''}/restock`, { method: 'POST', apiKey: 'sandbox-key' });
    expect(restock.headers.get('sunset')).toBe('Mon, 30 Jun 2031 00:00:00 GMT');
    expect(restock.headers.get('deprecation')).toMatch(/^@\d+$/);
  });
});

describe('apart', { timeout: 60_000 }, () => {
  it('keeps each API and each key to its own data', async () => {
    await v1.send('/store/orders', { json: { petId: 1, quantity: 1 } });
    const mine = (await v1.send('/store/orders?limit=50')).body as unknown[];
    const theirs = (await v1.send('/store/orders?limit=50', { bearer: 'other-key' })).body as unknown[];
    expect(theirs).toHaveLength(5);
    expect(mine.length).toBeGreaterThan(5);
    const items = (await v2.send('/items?limit=50', { apiKey: 'other-key' })).body as unknown[];
    expect(items).toHaveLength(5);
  });
});

describe('the QA tools, with any spec', { timeout: 60_000 }, () => {
  const control = (path: string, init: RequestInit = {}) =>
    fetch(`${sandbox.origin}/__sandbox${path}`, {
      ...init,
      headers: { authorization: 'Bearer sandbox-admin', 'x-sandbox-key': 'sandbox-key', 'content-type': 'application/json', ...init.headers },
    });

  it("forces a fault by any spec's operationId, answered in that spec's error shape", async () => {
    const added = await control('/faults', { method: 'POST', body: JSON.stringify({ operationId: 'listItems', status: 503, count: 1 }) });
    expect(added.status).toBe(201);
    const failed = await v2.send('/items', { apiKey: 'sandbox-key' });
    expect(failed.status).toBe(503);
    expect(Object.keys(failed.body).sort()).toEqual(['detail', 'error']);
    expect((await v2.send('/items', { apiKey: 'sandbox-key' })).status).toBe(200);
  });

  it("journals and counts each spec's operations", async () => {
    await v1.send('/store/orders?limit=1');
    const journal = (await (await control('/journal?limit=200')).json()) as { entries: { operationId: string | null; url: string }[] };
    const ids = new Set(journal.entries.map((e) => e.operationId));
    expect(ids).toContain('listOrders');
    expect(ids).toContain('listItems');
    const coverage = (await (await control('/coverage')).json()) as { operations: { operationId: string; requests: number }[] };
    const counted = new Map(coverage.operations.map((op) => [op.operationId, op.requests]));
    expect(counted.get('listOrders')).toBeGreaterThan(0);
    expect(counted.get('createItem')).toBeGreaterThan(0);
  });

  it("reset seeds every spec's items afresh", async () => {
    await v2.send('/items', { apiKey: 'sandbox-key', json: { name: 'Brush', sku: 'BRU-0001', category: 'paint' } });
    expect(((await v2.send('/items?limit=50', { apiKey: 'sandbox-key' })).body as unknown[]).length).toBeGreaterThan(5);
    expect((await control('/reset', { method: 'POST', body: '{}' })).status).toBe(200);
    expect((await v2.send('/items?limit=50', { apiKey: 'sandbox-key' })).body).toHaveLength(5);
    expect((await v1.send('/store/orders?limit=50')).body).toHaveLength(5);
  });
});
