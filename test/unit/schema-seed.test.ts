import { describe, expect, it } from 'vitest';
import { fakerEn as browserFaker } from '../../src/store/faker-en.browser.js';
import { sampleValue, seedCollections, seedOrder, type SeedCollection } from '../../src/store/schema-seed.js';
import { seededRandom } from '../../src/store/schema-random.js';
import { readSpec, schemaOracle } from '../support/schema-oracle.js';

const petstore = readSpec('test/specs/petstore-1.1.yaml');
const inventory = readSpec('test/specs/inventory-v2.yaml');

const PETS: SeedCollection = { name: '/pets', idField: 'id', idKind: 'integer', schemaPointer: '/components/schemas/Pet' };
const ORDERS: SeedCollection = { name: '/store/orders', idField: 'id', idKind: 'integer', schemaPointer: '/components/schemas/Order' };
const ITEMS: SeedCollection = { name: '/items', idField: 'id', idKind: 'uuid', schemaPointer: '/components/schemas/Item' };
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const seedStore = (seed: number, count: number) => seedCollections(petstore, [ORDERS, PETS], { seed, count });
const seedInventory = (seed: number, count: number) => seedCollections(inventory, [ITEMS], { seed, count });

/** The oracle's complaints about each item that breaks the schema; empty when all keep it. */
function offSchema(document: object, pointer: string, items: readonly unknown[]): unknown[] {
  const check = schemaOracle(document, pointer);
  return items.flatMap((item) => (check(item) ? [] : [{ item, errors: check.errors }]));
}

describe('seeded items from item schemas', () => {
  it('are the same, byte for byte, for the same document, seed and count', () => {
    const first = JSON.stringify([...seedStore(42, 60), ...seedInventory(42, 60)]);
    expect(JSON.stringify([...seedStore(42, 60), ...seedInventory(42, 60)])).toBe(first);
  });

  it.each([
    [1, 2],
    [7, 8],
    [0, 4294967295],
  ])('differ between seeds %i and %i', (a, b) => {
    expect(seedStore(a, 20).get('/store/orders')).not.toEqual(seedStore(b, 20).get('/store/orders'));
    expect(seedStore(a, 20).get('/pets')).not.toEqual(seedStore(b, 20).get('/pets'));
    expect(seedInventory(a, 20).get('/items')).not.toEqual(seedInventory(b, 20).get('/items'));
  });

  it("keep Pet Store 1.1's Pet and Order schemas and the inventory's Item schema, for many seeds", () => {
    for (const seed of [0, 1, 2, 3, 99, 12345, 4294967295]) {
      const store = seedStore(seed, 80);
      expect(offSchema(petstore, PETS.schemaPointer, store.get('/pets') ?? [])).toEqual([]);
      expect(offSchema(petstore, ORDERS.schemaPointer, store.get('/store/orders') ?? [])).toEqual([]);
      expect(offSchema(inventory, ITEMS.schemaPointer, seedInventory(seed, 80).get('/items') ?? [])).toEqual([]);
    }
  });

  it('give count items per collection, integer ids 1..count, and UUIDs of version 4 shape, all distinct', () => {
    for (const count of [0, 1, 5, 37]) {
      const store = seedStore(5, count);
      expect(store.get('/pets')?.map((p) => p.id)).toEqual(Array.from({ length: count }, (_, i) => i + 1));
      expect(store.get('/store/orders')?.map((o) => o.id)).toEqual(Array.from({ length: count }, (_, i) => i + 1));
      const ids =
        seedInventory(5, count)
          .get('/items')
          ?.map((item) => item.id) ?? [];
      expect(ids).toHaveLength(count);
      expect(new Set(ids).size).toBe(count);
      for (const id of ids) expect(id).toMatch(UUID_V4);
    }
  });

  it('keep the map in the order the collections were given, each item its properties in schema order', () => {
    const store = seedStore(3, 10);
    expect([...store.keys()]).toEqual(['/store/orders', '/pets']);
    const order = ['id', 'petId', 'quantity', 'shipDate', 'status', 'complete'];
    for (const item of store.get('/store/orders') ?? []) {
      const keys = Object.keys(item);
      expect(keys).toEqual(order.filter((key) => keys.includes(key)));
    }
  });

  it("give an order's petId the id of a seeded pet, pets seeded first though listed after", () => {
    expect(seedOrder(petstore, [ORDERS, PETS]).map((c) => c.name)).toEqual(['/pets', '/store/orders']);
    for (const [seed, count] of [
      [1, 3],
      [2, 40],
      [9, 1],
    ] as const) {
      const store = seedStore(seed, count);
      const petIds = new Set(store.get('/pets')?.map((p) => p.id));
      const orders = store.get('/store/orders') ?? [];
      for (const order of orders) expect(petIds.has(order.petId)).toBe(true);
      if (count >= 40) expect(new Set(orders.map((o) => o.petId)).size).toBeGreaterThan(10);
    }
  });

  it('fill optional properties about 70% of the time, enums with every value, readOnly fields too', () => {
    const items = seedInventory(11, 400).get('/items') ?? [];
    for (const field of ['price', 'inStock', 'tags', 'createdAt']) {
      const share = items.filter((item) => field in item).length / items.length;
      expect(share, field).toBeGreaterThan(0.55);
      expect(share, field).toBeLessThan(0.85);
    }
    expect(new Set(items.map((item) => item.category))).toEqual(new Set(['tools', 'parts', 'paint']));
    expect(items.every((item) => /^[A-Z]{3}-[0-9]{4}$/.test(String(item.sku)))).toBe(true);
  });

  it('give realistic names: pet names for pets, product names for items', () => {
    const pets = seedStore(4, 30).get('/pets') ?? [];
    expect(pets.every((p) => /^[A-Z][a-zA-Z' -]+$/.test(String(p.name)))).toBe(true);
    const items = seedInventory(4, 30).get('/items') ?? [];
    expect(items.filter((item) => String(item.name).split(' ').length >= 2).length).toBeGreaterThan(20);
  });

  it("with a browser's Faker (pet names only): the same ids and shapes, still valid, still deterministic", () => {
    const node = seedInventory(8, 50).get('/items') ?? [];
    const browse = () => seedCollections(inventory, [ITEMS], { seed: 8, count: 50, faker: browserFaker() }).get('/items') ?? [];
    const browser = browse();
    expect(JSON.stringify(browse())).toBe(JSON.stringify(browser));
    expect(offSchema(inventory, ITEMS.schemaPointer, browser)).toEqual([]);
    expect(browser.map((item) => Object.keys(item))).toEqual(node.map((item) => Object.keys(item)));
    expect(browser.map((item) => [item.id, item.category, item.price])).toEqual(node.map((item) => [item.id, item.category, item.price]));
    const store = seedCollections(petstore, [ORDERS, PETS], { seed: 8, count: 50, faker: browserFaker() });
    expect(offSchema(petstore, ORDERS.schemaPointer, store.get('/store/orders') ?? [])).toEqual([]);
  });

  it('seed an item the same whatever the count: a larger store begins with the smaller one', () => {
    expect(seedStore(6, 50).get('/pets')?.slice(0, 20)).toEqual(seedStore(6, 20).get('/pets'));
    expect(seedInventory(6, 50).get('/items')?.slice(0, 20)).toEqual(seedInventory(6, 20).get('/items'));
  });

  it('give nothing for a collection whose schema pointer leads nowhere', () => {
    const lost: SeedCollection = { ...PETS, name: '/lost', schemaPointer: '/components/schemas/Nowhere' };
    expect(seedCollections(petstore, [lost, PETS], { seed: 1, count: 3 }).get('/lost')).toEqual([]);
  });
});

describe('one value for a schema (sampleValue)', () => {
  it('makes read-only fields: a date-time, a UUID, the same for the same generator', () => {
    const createdAt = sampleValue(inventory, '/components/schemas/Item/properties/createdAt', seededRandom(1));
    expect(createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(sampleValue(inventory, '#/components/schemas/Item/properties/id', seededRandom(1))).toMatch(UUID_V4);
    expect(sampleValue(inventory, '/components/schemas/Item', seededRandom(2))).toEqual(sampleValue(inventory, '/components/schemas/Item', seededRandom(2)));
  });

  it('makes a whole item valid against its schema, for Math.random too', () => {
    const items = Array.from({ length: 50 }, () => sampleValue(inventory, '/components/schemas/Item', Math.random));
    expect(offSchema(inventory, ITEMS.schemaPointer, items)).toEqual([]);
  });
});

describe('the keywords around a value', () => {
  const shares = (pointer: string, document: object, test: (value: unknown) => boolean, n = 400) =>
    Array.from({ length: n }, (_, i) => sampleValue(document, pointer, seededRandom('share', i))).filter(test).length / n;

  it("merge allOf: the Pet Store's 400 and 401 errors carry their own status", () => {
    for (const [name, status] of [
      ['BadRequestError', 400],
      ['UnauthorizedError', 401],
    ] as const) {
      const value = sampleValue(petstore, `/components/schemas/${name}`, seededRandom(name));
      expect(value).toMatchObject({ status });
      expect(offSchema(petstore, `/components/schemas/${name}`, [value])).toEqual([]);
    }
  });

  it('make a nullable value null now and then, and use a documented default now and then', () => {
    const price = '/components/schemas/ItemPatch/properties/price';
    const nulls = shares(price, inventory, (v) => v === null);
    expect(nulls).toBeGreaterThan(0.03);
    expect(nulls).toBeLessThan(0.2);
    expect(shares(price, inventory, (v) => typeof v === 'number' && v >= 0)).toBeGreaterThan(0.8);
    const defaults = shares('/components/schemas/Order/properties/quantity', petstore, (v) => v === 1);
    expect(defaults).toBeGreaterThan(0.25);
    expect(defaults).toBeLessThan(0.45);
  });

  const doc = (properties: Record<string, unknown>, required: string[]) => ({
    components: { schemas: { Thing: { type: 'object', required, properties } } },
  });

  it('fall back to the example for a pattern Faker cannot make, and leave an optional such property out', () => {
    const hard = { type: 'string', pattern: '^(?=.*[0-9])[a-z0-9]{8}$' };
    const withExample = doc({ code: { ...hard, example: 'abcd1234' } }, ['code']);
    expect(sampleValue(withExample, '/components/schemas/Thing', seededRandom(1))).toEqual({ code: 'abcd1234' });
    const optional = doc({ code: hard, other: { type: 'boolean' } }, ['other']);
    for (let i = 0; i < 20; i++) expect(sampleValue(optional, '/components/schemas/Thing', seededRandom(i))).not.toHaveProperty('code');
  });

  it('make patterns with \\d and \\w, groups and alternatives, checked against the pattern', () => {
    const patterns = { zip: '^\\d{5}(?:-\\d{4})?$', handle: '^[\\w]{3,6}$', pair: '^(ab|cd){2}$', phone: '^\\+?[1-9]\\d{6,12}$', slug: '^[a-z]+(-[a-z]+)*$' };
    const document = doc(Object.fromEntries(Object.entries(patterns).map(([name, pattern]) => [name, { type: 'string', pattern }])), Object.keys(patterns));
    const values = Array.from({ length: 30 }, (_, i) => sampleValue(document, '/components/schemas/Thing', seededRandom(i)) as Record<string, string>);
    expect(offSchema(document, '/components/schemas/Thing', values)).toEqual([]);
    expect(new Set(values.map((v) => v.zip)).size).toBeGreaterThan(20);
  });

  it('end a recursive schema: a few levels down, arrays hold their fewest items and optional properties are left out', () => {
    const node = (required: string[]) => ({
      type: 'object',
      required,
      properties: { label: { type: 'string' }, children: { type: 'array', items: { $ref: '#/components/schemas/Node' } } },
    });
    const levels = (value: unknown): number => {
      const children = (value as { children?: unknown[] }).children ?? [];
      return 1 + Math.max(0, ...children.map(levels));
    };
    for (const required of [['label'], ['label', 'children']]) {
      const tree = { components: { schemas: { Node: node(required) } } };
      const values = Array.from({ length: 20 }, (_, i) => sampleValue(tree, '/components/schemas/Node', seededRandom(i)));
      expect(offSchema(tree, '/components/schemas/Node', values)).toEqual([]);
      expect(Math.max(...values.map(levels))).toBeLessThanOrEqual(3);
    }
  });

  it('merge the enums of allOf into the values both allow', () => {
    const document = { components: { schemas: { Size: { allOf: [{ type: 'string', enum: ['s', 'm', 'l'] }, { enum: ['m', 'l', 'xl'] }] } } } };
    const values = new Set(Array.from({ length: 40 }, (_, i) => sampleValue(document, '/components/schemas/Size', seededRandom(i))));
    expect(values).toEqual(new Set(['m', 'l']));
  });

  it('draw again when Faker makes a string the pattern takes but the length bounds refuse', () => {
    const document = doc({ code: { type: 'string', pattern: '^[a-z]{1,6}$', minLength: 4 } }, ['code']);
    const values = Array.from({ length: 30 }, (_, i) => sampleValue(document, '/components/schemas/Thing', seededRandom(i)));
    expect(offSchema(document, '/components/schemas/Thing', values)).toEqual([]);
  });

  it('refer by snake_case too, and not at all where the ids do not fit the property', () => {
    const document = {
      components: {
        schemas: {
          Owner: { type: 'object', properties: { id: { type: 'integer' } } },
          Dog: { type: 'object', required: ['owner_id', 'ownerRef'], properties: { id: { type: 'integer' }, owner_id: { type: 'integer' } } },
          Cat: { type: 'object', required: ['ownerId'], properties: { id: { type: 'integer' }, ownerId: { type: 'string', format: 'uuid' } } },
        },
      },
    };
    const collection = (name: string, schema: string): SeedCollection => ({
      name,
      idField: 'id',
      idKind: 'integer',
      schemaPointer: `/components/schemas/${schema}`,
    });
    const seeded = seedCollections(document, [collection('/dogs', 'Dog'), collection('/cats', 'Cat'), collection('/owners', 'Owner')], { seed: 3, count: 4 });
    for (const dog of seeded.get('/dogs') ?? []) expect([1, 2, 3, 4]).toContain(dog.owner_id);
    for (const cat of seeded.get('/cats') ?? []) expect(cat.ownerId).toMatch(UUID_V4);
  });
});
