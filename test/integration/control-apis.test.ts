/**
 * `GET /__sandbox/apis` and `GET /__sandbox/apis/{index}/spec`: the APIs a
 * sandbox serves, with two specs (`--spec`) and with the embedded Pet Store
 * alone; every answer checked against spec/sandbox-control.yaml by the
 * control client of the tests. The fault form's and the coverage's paths
 * carry each API's base path.
 */
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSandbox, type TestSandbox } from '../support/harness.js';
import { controlOf, type Control } from '../support/control-client.js';
import { INVENTORY, PETSTORE_11 } from '../support/own-spec.js';

interface Operation {
  operationId: string;
  method: string;
  path: string;
  answeredBy: string;
  collection?: string;
  role?: string;
  key?: { in: string; name: string; scheme?: string };
}

let two: TestSandbox;
let ctl: Control;

beforeAll(async () => {
  two = await startTestSandbox(['--spec', PETSTORE_11, '--spec', INVENTORY, '--count', '3']);
  ctl = controlOf(two);
}, 60_000);
afterAll(() => two?.stop());

const operationOf = (api: { operations: Operation[] }, id: string): Operation => api.operations.find((o) => o.operationId === id) as Operation;

describe('GET /__sandbox/apis with two specs', { timeout: 60_000 }, () => {
  it('lists both APIs in the order given, each with its base path, title, version and spec URL', async () => {
    const { status, body } = await ctl('GET', '/apis');
    expect(status).toBe(200);
    expect(body.apis.map((a: { index: number; base: string; title: string; version: string; embedded: boolean; specUrl: string }) => a)).toMatchObject([
      { index: 0, base: '/v1', title: 'Pet Store', version: '1.1.0', embedded: false, specUrl: '/__sandbox/apis/0/spec' },
      { index: 1, base: '/api/v2', title: 'Inventory', version: '2.0.0', embedded: false, specUrl: '/__sandbox/apis/1/spec' },
    ]);
  });

  it('says how each operation is answered and where its key goes', async () => {
    const [v1, v2] = (await ctl('GET', '/apis')).body.apis;
    expect(operationOf(v1, 'listOrders')).toMatchObject({
      method: 'GET',
      path: '/v1/store/orders',
      answeredBy: 'convention',
      collection: '/store/orders',
      role: 'list',
    });
    expect(operationOf(v1, 'listOrders').key).toEqual({ in: 'header', name: 'Authorization', scheme: 'Bearer' });
    // The 1.1 spec's own listPets, createPet and getPet are the Pet Store's, answered by its rules over the workspace's pets.
    for (const id of ['listPets', 'createPet', 'getPet']) expect(operationOf(v1, id)).toMatchObject({ answeredBy: 'petstore' });
    expect(operationOf(v1, 'listPets').collection).toBeUndefined();
    expect(operationOf(v2, 'listItems')).toEqual({
      operationId: 'listItems',
      method: 'GET',
      path: '/api/v2/items',
      answeredBy: 'convention',
      collection: '/items',
      role: 'list',
      key: { in: 'header', name: 'X-Api-Key' },
    });
    expect(operationOf(v2, 'restockItem')).toMatchObject({ method: 'POST', path: '/api/v2/items/{itemId}/restock', answeredBy: 'examples' });
    // security: [] : open, no key.
    expect(operationOf(v2, 'health').key).toBeUndefined();
    expect(v2.operations.map((o: Operation) => o.operationId)).toEqual([
      'health',
      'listItems',
      'createItem',
      'getItem',
      'replaceItem',
      'updateItem',
      'deleteItem',
      'restockItem',
    ]);
    expect(v2.collections).toEqual([{ name: '/items', path: '/api/v2/items', idField: 'id', listOperationId: 'listItems' }]);
  });

  it('serves each spec as loaded, and a 404 Error body for an index that names no API', async () => {
    const spec = await ctl('GET', '/apis/1/spec');
    expect(spec.status).toBe(200);
    expect(spec.body).toEqual(parse(readFileSync(INVENTORY, 'utf8')));
    for (const index of ['2', '99', 'abc', '-1']) {
      const missing = await ctl('GET', `/apis/${index}/spec`);
      expect(missing.status).toBe(404);
      expect(missing.body).toMatchObject({ code: 'not_found', status: 404 });
    }
  });

  it('needs the admin token, as the rest of the control plane', async () => {
    expect((await ctl('GET', '/apis', { token: null })).status).toBe(401);
    expect((await ctl('GET', '/apis/0/spec', { token: 'sandbox-key' })).status).toBe(403);
  });

  it("gives the fault form's operations and the coverage each API's base path", async () => {
    const { body } = await ctl('GET', '/operations');
    const paths = Object.fromEntries(body.operations.map((o: Operation) => [o.operationId, o.path]));
    expect(paths).toMatchObject({ listPets: '/v1/pets', listOrders: '/v1/store/orders', listItems: '/api/v2/items', getItem: '/api/v2/items/{itemId}' });
    const coverage = await ctl('GET', '/coverage?format=json');
    const covered = Object.fromEntries(coverage.body.operations.map((o: Operation) => [o.operationId, o.path]));
    expect(covered).toMatchObject({ listOrders: '/v1/store/orders', restockItem: '/api/v2/items/{itemId}/restock' });
  });
});

describe('GET /__sandbox/apis without --spec', { timeout: 60_000 }, () => {
  it('lists the embedded Pet Store alone at /v1, answered by its own rules, its spec the embedded one', async () => {
    const one = await startTestSandbox(['--count', '1']);
    try {
      const embedded = controlOf(one);
      const { body } = await embedded('GET', '/apis');
      expect(body.apis).toHaveLength(1);
      expect(body.apis[0]).toMatchObject({ index: 0, base: '/v1', embedded: true, collections: [] });
      expect(body.apis[0].operations.map((o: Operation) => `${o.operationId} ${o.method} ${o.path} ${o.answeredBy}`)).toEqual([
        'listPets GET /v1/pets petstore',
        'createPet POST /v1/pets petstore',
        'getPet GET /v1/pets/{petId} petstore',
      ]);
      const spec = await embedded('GET', '/apis/0/spec');
      expect(spec.body.info.title).toBe(body.apis[0].title);
      expect(Object.keys(spec.body.paths)).toEqual(['/pets', '/pets/{petId}']);
    } finally {
      await one.stop();
    }
  });
});
