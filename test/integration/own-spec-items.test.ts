/**
 * The items of the APIs served by convention (`--spec`) follow a
 * workspace's export, load, checkpoints and copy, over HTTP on the run's
 * store: an export holds them under `apis`, a load takes them back all or
 * nothing, export → load → export is byte for byte. Every API answer is
 * checked against its own spec, every control answer against the control
 * plane's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { controlOf, type Control } from '../support/control-client.js';
import { startTestSandbox, type TestSandbox } from '../support/harness.js';
import { INVENTORY, PETSTORE_11, servedApi, type ServedApi } from '../support/own-spec.js';

let sandbox: TestSandbox;
let ctl: Control;
let v1: ServedApi;
let v2: ServedApi;

beforeAll(async () => {
  sandbox = await startTestSandbox(['--spec', PETSTORE_11, '--spec', INVENTORY, '--count', '3', '--quota-pets', '5', '--api-keys', 'key-a,key-b']);
  ctl = controlOf(sandbox);
  v1 = servedApi(fetch, sandbox.origin, '/v1', PETSTORE_11);
  v2 = servedApi(fetch, sandbox.origin, '/api/v2', INVENTORY);
}, 60_000);

afterAll(() => sandbox?.stop());

const hammer = { name: 'Hammer', sku: 'HAM-0001', category: 'tools', price: 12.5 };

const exportText = async (key = 'key-a'): Promise<string> => {
  const res = await ctl('GET', '/export', { key });
  expect(res.status).toBe(200);
  return res.text;
};

/** A new inventory item and a new order in key's workspace: their ids. */
async function createBoth(key = 'key-a'): Promise<{ itemId: string; orderId: number }> {
  const item = await v2.send('/items', { apiKey: key, json: hammer });
  expect(item.status).toBe(201);
  const order = await v1.send('/store/orders', { bearer: key, json: { petId: 2, quantity: 3 } });
  expect(order.status).toBe(201);
  return { itemId: item.body.id as string, orderId: order.body.id as number };
}

const loadText = (text: string, key = 'key-a') => ctl('POST', '/load', { key, headers: { 'content-type': 'application/json' }, body: text });

describe('export and load with items', { timeout: 60_000 }, () => {
  it('exports every collection of every API served by convention, and loads it back byte for byte', async () => {
    const { itemId, orderId } = await createBoth();
    const text = await exportText();
    const body = JSON.parse(text);
    expect(Object.keys(body)).toEqual(['nextId', 'pets', 'apis']);
    expect(Object.keys(body.apis)).toEqual(['/v1', '/api/v2']);
    // The 1.1 spec's /pets are the Pet Store's pets (its rules' layer), exported under `pets`, not as items.
    expect(Object.keys(body.apis['/v1'])).toEqual(['/store/orders']);
    expect(body.apis['/v1']['/store/orders'].nextId).toBe(orderId + 1);
    expect(body.apis['/api/v2']['/items'].nextId).toBeUndefined();
    expect(body.apis['/api/v2']['/items'].items).toContainEqual(expect.objectContaining({ id: itemId, ...hammer }));

    // A reset seeds the items afresh: the new ones are gone.
    expect((await ctl('POST', '/reset', { key: 'key-a' })).status).toBe(200);
    expect((await v2.send(`/items/${itemId}`, { apiKey: 'key-a' })).status).toBe(404);
    expect((await v1.send(`/store/orders/${orderId}`, { bearer: 'key-a' })).status).toBe(404);

    expect((await loadText(text)).status).toBe(200);
    expect(await exportText()).toBe(text);
    expect((await v2.send(`/items/${itemId}`, { apiKey: 'key-a' })).body).toMatchObject(hammer);
    expect((await v1.send(`/store/orders/${orderId}`, { bearer: 'key-a' })).body).toMatchObject({ id: orderId, petId: 2, quantity: 3 });
    // The next id came back too: the next order takes the one after.
    const next = await v1.send('/store/orders', { bearer: 'key-a', json: { petId: 1, quantity: 1 } });
    expect(next.body.id).toBe(orderId + 1);
  });

  it('appends items, refusing an id already stored', async () => {
    const before = await exportText();
    const items = JSON.parse(before).apis['/api/v2']['/items'].items as { id: string }[];
    const added = { id: '0b7a3c9e-1d2f-4a5b-8c6d-7e8f9a0b1c2d', name: 'Saw', sku: 'SAW-0002', category: 'tools' };
    const clash = await ctl('POST', '/load', { key: 'key-a', json: { mode: 'append', apis: { '/api/v2': { '/items': { items: [items[0]] } } } } });
    expect(clash.status).toBe(400);
    expect(clash.body.message).toContain('already stored in /api/v2 /items');
    expect(await exportText()).toBe(before);
    const res = await ctl('POST', '/load', { key: 'key-a', json: { mode: 'append', apis: { '/api/v2': { '/items': { items: [added] } } } } });
    expect(res.status).toBe(200);
    const listed = await v2.send('/items?limit=50', { apiKey: 'key-a' });
    expect(listed.body.map((i: { id: string }) => i.id)).toEqual([...items.map((i) => i.id), added.id]);
    // The pets were not named: they are as they were.
    expect(JSON.parse(await exportText()).pets).toEqual(JSON.parse(before).pets);
  });

  it('refuses an unknown API, an unknown collection, an invalid item or a repeated id, loading nothing (pets neither)', async () => {
    const before = await exportText();
    const pets = [{ id: 1, name: 'Only', categoryId: 1 }];
    const cases: [unknown, string][] = [
      [{ '/api/v9': {} }, "No API is served by convention at '/api/v9'"],
      [{ '/api/v2': { '/widgets': { items: [] } } }, "has no collection '/widgets'"],
      [{ '/api/v2': { '/items': { items: [{ ...hammer, id: '1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f', sku: 'bad' }] } } }, "Record 0 field 'sku'"],
      [
        {
          '/v1': {
            '/store/orders': {
              items: [
                { id: 1, petId: 1, quantity: 1 },
                { id: 1, petId: 2, quantity: 2 },
              ],
            },
          },
        },
        'record 1 has id 1, already used by record 0',
      ],
    ];
    for (const [apis, message] of cases) {
      const res = await ctl('POST', '/load', { key: 'key-a', json: { pets, apis } });
      expect(res.status, JSON.stringify(apis)).toBe(400);
      expect(res.body.message).toContain(message);
      expect(res.body.message).toContain('Nothing was loaded.');
    }
    expect(await exportText()).toBe(before);
  });
});

describe('a load refused by the pets after its items were written', { timeout: 60_000 }, () => {
  it('puts the items back: nothing is stored', async () => {
    const before = await exportText();
    const pets = Array.from({ length: 6 }, (_, i) => ({ id: i + 1, name: `Pet ${i + 1}`, categoryId: 1 }));
    const items = [{ id: '5e6f7a8b-9c0d-4e1f-8a2b-3c4d5e6f7a8b', name: 'Drill', sku: 'DRL-0003', category: 'tools' }];
    const res = await ctl('POST', '/load', { key: 'key-a', json: { pets, apis: { '/api/v2': { '/items': { items } } } } });
    expect(res.status).toBe(507);
    expect(res.body.code).toBe('quota_exceeded');
    expect(await exportText()).toBe(before);
  });
});

describe('checkpoints and copies with items', { timeout: 60_000 }, () => {
  it('restores the items saved with the pets', async () => {
    const { itemId } = await createBoth();
    const saved = await exportText();
    expect((await ctl('POST', '/checkpoints', { key: 'key-a', json: { name: 'with-items', overwrite: true } })).status).toBe(201);
    expect((await v2.send(`/items/${itemId}`, { apiKey: 'key-a', method: 'DELETE' })).status).toBe(204);
    await createBoth();
    expect((await ctl('POST', '/checkpoints/with-items/restore', { key: 'key-a' })).status).toBe(200);
    expect(await exportText()).toBe(saved);
    expect((await v2.send(`/items/${itemId}`, { apiKey: 'key-a' })).body).toMatchObject(hammer);
  });

  it('copies the items into another key, which then serves them', async () => {
    const { itemId, orderId } = await createBoth();
    const copied = await ctl('POST', '/copy', { key: 'key-a', headers: { 'x-sandbox-target-key': 'key-b' } });
    expect(copied.status).toBe(200);
    expect(await exportText('key-b')).toBe(await exportText('key-a'));
    expect((await v2.send(`/items/${itemId}`, { apiKey: 'key-b' })).body).toMatchObject(hammer);
    expect((await v1.send(`/store/orders/${orderId}`, { bearer: 'key-b' })).status).toBe(200);
  });
});
