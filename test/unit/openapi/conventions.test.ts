/** The REST conventions read from a spec: its collections and each operation's role, or why none fits. */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { inferApi } from '../../../src/openapi/conventions.js';
import { loadSpec } from '../../../src/openapi/load-spec.js';
import { indexSpec } from '../../../src/openapi/spec.js';

const specFile = (path: string) => fileURLToPath(new URL(`../../../${path}`, import.meta.url));
const roles = (model: ReturnType<typeof inferApi>) => Object.fromEntries([...model.operations].map(([id, o]) => [id, [o.role, o.collection.name, o.status]]));

describe('inferApi on the specs served', () => {
  it('the embedded Pet Store 1.0: /pets with listPets (status filter, limit 20 up to 100), createPet (201) and getPet', () => {
    const model = inferApi(loadSpec(specFile('spec/openapi.yaml')));
    expect(model.collections).toEqual([
      {
        name: '/pets',
        idField: 'id',
        idKind: 'integer',
        itemPath: '/pets/{petId}',
        idParam: 'petId',
        itemSchema: '/components/schemas/Pet',
        createSchema: '/components/schemas/NewPet',
      },
    ]);
    expect(roles(model)).toEqual({ listPets: ['list', '/pets', 200], createPet: ['create', '/pets', 201], getPet: ['read', '/pets', 200] });
    expect(model.operations.get('listPets')).toMatchObject({ filters: ['status'], limit: { name: 'limit', default: 20, maximum: 100 } });
    expect(model.unmatched.size).toBe(0);
  });

  it('Pet Store 1.1: /store/orders beside /pets, with its filters, its limit and a 204 delete', () => {
    const model = inferApi(loadSpec(specFile('test/specs/petstore-1.1.yaml')));
    expect(model.collections.map((c) => [c.name, c.idKind, c.itemPath, c.idParam, c.itemSchema])).toEqual([
      ['/pets', 'integer', '/pets/{petId}', 'petId', '/components/schemas/Pet'],
      ['/store/orders', 'integer', '/store/orders/{orderId}', 'orderId', '/components/schemas/Order'],
    ]);
    expect(roles(model)).toMatchObject({
      listOrders: ['list', '/store/orders', 200],
      placeOrder: ['create', '/store/orders', 201],
      getOrder: ['read', '/store/orders', 200],
      cancelOrder: ['delete', '/store/orders', 204],
    });
    expect(model.operations.get('listOrders')).toMatchObject({ filters: ['status', 'petId'], limit: { name: 'limit', default: 10, maximum: 50 } });
    expect(model.unmatched.size).toBe(0);
  });

  it('the inventory: UUID ids, every item role, the merge patch schema; /health and the nested restock unmatched', () => {
    const model = inferApi(loadSpec(specFile('test/specs/inventory-v2.yaml')));
    expect(model.collections.map((c) => [c.name, c.idKind, c.idParam, c.itemSchema, c.createSchema])).toEqual([
      ['/items', 'uuid', 'itemId', '/components/schemas/Item', '/components/schemas/Item'],
    ]);
    expect(roles(model)).toEqual({
      listItems: ['list', '/items', 200],
      createItem: ['create', '/items', 201],
      getItem: ['read', '/items', 200],
      replaceItem: ['replace', '/items', 200],
      updateItem: ['patch', '/items', 200],
      deleteItem: ['delete', '/items', 204],
    });
    expect(model.operations.get('listItems')?.filters).toEqual(['category', 'inStock']);
    expect([...model.unmatched.keys()].sort()).toEqual(['health', 'restockItem']);
    expect(model.unmatched.get('health')).toMatch(/\/health is no collection/);
    expect(model.unmatched.get('restockItem')).toMatch(/nested resources fit no convention/);
  });
});

/** A hand-made OpenAPI 3.0 document of the given paths and schemas. */
function hand(paths: Record<string, unknown>, schemas: Record<string, unknown> = {}) {
  return indexSpec('hand.yaml', { openapi: '3.0.3', info: { title: 't', version: '1' }, paths, components: { schemas } });
}
const json = (schema: unknown) => ({ content: { 'application/json': { schema } } });
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const op = (operationId: string, responses: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({ operationId, responses, ...extra });

describe('inferApi on edge cases', () => {
  it('an id declared through allOf is found; a string id without format is a string id', () => {
    const model = inferApi(
      hand(
        {
          '/notes': { get: op('listNotes', { '200': { description: '', ...json({ type: 'array', items: ref('Note') }) } }) },
          '/notes/{slug}': { get: op('getNote', { '200': { description: '', ...json(ref('Note')) } }) },
        },
        {
          Base: { type: 'object', properties: { id: { type: 'string' } } },
          Note: { allOf: [ref('Base'), { type: 'object', properties: { text: { type: 'string' } } }] },
        },
      ),
    );
    expect(model.collections[0]).toMatchObject({ name: '/notes', idKind: 'string', idParam: 'slug', itemSchema: '/components/schemas/Note' });
    expect(roles(model)).toEqual({ listNotes: ['list', '/notes', 200], getNote: ['read', '/notes', 200] });
  });

  it('items without an id property: every operation of the collection unmatched, with the reason', () => {
    const model = inferApi(
      hand({
        '/logs': {
          get: op('listLogs', { '200': { description: '', ...json({ type: 'array', items: { type: 'object', properties: { line: { type: 'string' } } } }) } }),
          post: op('addLog', { '201': { description: '' } }, { requestBody: json({ type: 'object', properties: { line: { type: 'string' } } }) }),
        },
      }),
    );
    expect(model.collections).toEqual([]);
    expect(model.operations.size).toBe(0);
    expect(model.unmatched.get('listLogs')).toMatch(/items of \/logs have no `id` property/);
    expect(model.unmatched.get('addLog')).toMatch(/items of \/logs have no `id` property/);
  });

  it('a collection with only a POST and no item path: create by convention, no item path', () => {
    const thing = { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' } } };
    const model = inferApi(hand({ '/things': { post: op('addThing', { '200': { description: '', ...json(thing) } }, { requestBody: json(thing) }) } }));
    expect(model.collections).toEqual([
      {
        name: '/things',
        idField: 'id',
        idKind: 'integer',
        itemSchema: '/paths/~1things/post/requestBody/content/application~1json/schema',
        createSchema: '/paths/~1things/post/requestBody/content/application~1json/schema',
      },
    ]);
    expect(roles(model)).toEqual({ addThing: ['create', '/things', 200] });
  });

  it('nested collections, item paths without a collection, and methods without a role are unmatched with their reason', () => {
    const thing = { type: 'object', properties: { id: { type: 'integer' } } };
    const list = (id: string) => op(id, { '200': { description: '', ...json({ type: 'array', items: thing }) } });
    const model = inferApi(
      hand({
        '/a': { get: list('listA'), put: op('putA', { '200': { description: '' } }) },
        '/a/{aId}': { get: op('getA', { '200': { description: '', ...json(thing) } }), post: op('postA', { '200': { description: '' } }) },
        '/a/{aId}/b': { get: list('listB') },
        '/orphans/{id}': { get: op('getOrphan', { '200': { description: '', ...json(thing) } }) },
        '/silent': { get: list('listSilent') },
        '/silent/{id}': { delete: op('deleteSilent', { '404': { description: '' } }) },
      }),
    );
    expect(roles(model)).toEqual({ listA: ['list', '/a', 200], getA: ['read', '/a', 200], listSilent: ['list', '/silent', 200] });
    expect(Object.fromEntries(model.unmatched)).toEqual({
      putA: expect.stringMatching(/PUT \/a: by convention a collection path takes GET and POST/),
      postA: expect.stringMatching(/POST \/a\/\{aId\}: by convention .* an item path GET, PUT, PATCH and DELETE/),
      listB: expect.stringMatching(/\/a\/\{aId\}\/b lies below an item .*nested resources fit no convention/),
      getOrphan: expect.stringMatching(/no collection at \/orphans/),
      deleteSilent: expect.stringMatching(/DELETE \/silent\/\{id\} documents no success \(2xx\) answer/),
    });
  });

  it('a GET answering an object and a POST taking no object make no collection', () => {
    const model = inferApi(
      hand({ '/status': { get: op('status', { '200': { description: '', ...json({ type: 'object', properties: { id: { type: 'integer' } } }) } }) } }),
    );
    expect(model.collections).toEqual([]);
    expect(model.unmatched.get('status')).toMatch(/\/status is no collection/);
  });
});
