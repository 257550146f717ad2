/**
 * Property tests of schema-based seeding: random schemas of the keywords it
 * honours, each value checked by an independent validator (Ajv).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fakerEn as browserFaker } from '../../src/store/faker-en.browser.js';
import { seededRandom } from '../../src/store/schema-random.js';
import { sampleValue, seedCollections } from '../../src/store/schema-seed.js';
import { schemaOracle } from '../support/schema-oracle.js';

type Schema = Record<string, unknown>;
/** Bounded in count, with a fixed seed so that a failure repeats; generous in time, since the machine may be busy. */
const LONG = 120_000;
const RUNS = { numRuns: 120, seed: 20261129 };

const PATTERNS = ['^[A-Z]{3}-[0-9]{4}$', '^[a-z]{2,8}$', '^\\d{5}$', '^[a-f0-9]{8}$', '^#[0-9a-fA-F]{6}$', '^[A-Z][a-z]{1,9}$', '^[\\w]{4}$'];
const FORMATS = ['uuid', 'date-time', 'date', 'email', 'uri', 'hostname', 'ipv4'];

const nullable = <T extends Schema>(schema: fc.Arbitrary<T>) => fc.tuple(schema, fc.boolean()).map(([s, n]) => (n ? { ...s, nullable: true } : s));

const integer = fc
  .record({
    lo: fc.integer({ min: -1000, max: 1000 }),
    span: fc.integer({ min: 12, max: 5000 }),
    step: fc.constantFrom(undefined, 2, 3, 5),
    bounds: fc.constantFrom('both', 'min', 'max', 'none'),
    exclusive: fc.boolean(),
    format: fc.constantFrom(undefined, 'int32', 'int64'),
  })
  .map(({ lo, span, step, bounds, exclusive, format }) => ({
    type: 'integer',
    ...(format ? { format } : {}),
    ...(bounds === 'both' || bounds === 'min' ? { minimum: lo, ...(exclusive ? { exclusiveMinimum: true } : {}) } : {}),
    ...(bounds === 'both' || bounds === 'max' ? { maximum: lo + span, ...(exclusive ? { exclusiveMaximum: true } : {}) } : {}),
    ...(step ? { multipleOf: step } : {}),
  }));

const number = fc
  .record({
    lo: fc.double({ min: -1e4, max: 1e4, noNaN: true }),
    span: fc.double({ min: 0.5, max: 1e4, noNaN: true }),
    step: fc.constantFrom(undefined, 0.5, 0.25, 0.01),
    exclusive: fc.boolean(),
  })
  .map(({ lo, span, step, exclusive }) => ({
    type: 'number',
    minimum: lo,
    maximum: lo + span,
    ...(exclusive ? { exclusiveMinimum: true, exclusiveMaximum: true } : {}),
    ...(step ? { multipleOf: step } : {}),
  }));

const string = fc.oneof(
  fc
    .record({ min: fc.integer({ min: 0, max: 30 }), extra: fc.integer({ min: 0, max: 30 }) })
    .map(({ min, extra }) => ({ type: 'string', minLength: min, maxLength: min + extra })),
  fc.constantFrom(...FORMATS).map((format) => ({ type: 'string', format })),
  fc.constantFrom(...PATTERNS).map((pattern) => ({ type: 'string', pattern })),
  fc
    .uniqueArray(fc.string({ minLength: 1, maxLength: 8 }), { minLength: 1, maxLength: 5 })
    .chain((values) => fc.constantFrom(...values).map((first) => ({ type: 'string', enum: values, default: first }))),
);

const leaf = fc.oneof(
  nullable(fc.oneof(integer, number, string, fc.constant({ type: 'boolean', default: true }))),
  fc.constant({ $ref: '#/components/schemas/Shared' }),
  // Branches no value matches twice: the first one is seeded.
  fc.tuple(string, integer).map(([a, b]) => ({ oneOf: [a, b] })),
  fc.tuple(integer, string).map(([a, b]) => ({ anyOf: [a, b] })),
);

const NAMES = ['name', 'email', 'price', 'quantity', 'url', 'title', 'description', 'color', 'categoryId', 'tag', 'count', 'code', 'zip'];

const { schema } = fc.letrec<{ schema: Schema; object: Schema; array: Schema }>((tie) => ({
  schema: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    tie('object'),
    tie('array'),
    tie('object').map((o) => ({ allOf: [o, { type: 'object', properties: { extra: { type: 'boolean' } }, required: ['extra'] }] })),
  ),
  object: fc.uniqueArray(fc.tuple(fc.constantFrom(...NAMES), tie('schema'), fc.boolean()), { maxLength: 5, selector: ([name]) => name }).map((props) => ({
    type: 'object',
    properties: Object.fromEntries(props.map(([n, s]) => [n, s])),
    required: props.filter(([, , r]) => r).map(([n]) => n),
  })),
  array: fc
    .record({ items: tie('schema'), min: fc.integer({ min: 0, max: 3 }), extra: fc.integer({ min: 0, max: 4 }), unique: fc.boolean() })
    .map(({ items, min, extra, unique }) => ({
      type: 'array',
      items,
      minItems: min,
      maxItems: min + extra,
      // Unique items only where one item is enough: a random item schema may allow very few distinct values.
      ...(unique && min <= 1 ? { uniqueItems: true } : {}),
    })),
}));

const SHARED = {
  type: 'object',
  required: ['code'],
  properties: { code: { type: 'string', pattern: '^[A-Z]{2}[0-9]{2}$' }, rank: { type: 'integer', minimum: 1, maximum: 3 } },
};
const documentOf = (root: Schema) => ({ components: { schemas: { Root: root, Shared: SHARED } } });

describe('values for random schemas', () => {
  it(
    'keep every keyword of the schema (checked by Ajv)',
    () => {
      fc.assert(
        fc.property(schema, fc.integer(), (root, seed) => {
          const document = documentOf(root);
          const check = schemaOracle(document, '/components/schemas/Root');
          for (let i = 0; i < 5; i++) {
            const value = sampleValue(document, '/components/schemas/Root', seededRandom(seed, i));
            if (!check(value)) throw new Error(`${JSON.stringify(value)} off ${JSON.stringify(root)}: ${JSON.stringify(check.errors)}`);
          }
        }),
        RUNS,
      );
    },
    LONG,
  );

  it(
    "keep them with a browser's Faker too, the same for the same generator",
    () => {
      fc.assert(
        fc.property(schema, fc.integer(), (root, seed) => {
          const document = documentOf(root);
          const value = sampleValue(document, '/components/schemas/Root', seededRandom(seed), browserFaker());
          expect(schemaOracle(document, '/components/schemas/Root')(value)).toBe(true);
          expect(sampleValue(document, '/components/schemas/Root', seededRandom(seed), browserFaker())).toEqual(value);
        }),
        { ...RUNS, numRuns: 60 },
      );
    },
    LONG,
  );
});

describe('seeded collections of random item schemas', () => {
  const item = fc.tuple(schema, fc.constantFrom<'integer' | 'uuid'>('integer', 'uuid')).map(([extra, kind]) => ({
    kind,
    schema: {
      type: 'object',
      required: ['title'],
      properties: {
        id: kind === 'integer' ? { type: 'integer', minimum: 1, readOnly: true } : { type: 'string', format: 'uuid', readOnly: true },
        widgetId: { type: 'integer', minimum: 1 },
        title: { type: 'string', maxLength: 12 },
        extra,
      },
    },
  }));

  it(
    'give count valid items, each widgetId one of the seeded widgets, the same again for the same seed',
    () => {
      fc.assert(
        fc.property(item, fc.nat({ max: 25 }), fc.integer({ min: 0, max: 2 ** 32 - 1 }), ({ kind, schema: gadget }, count, seed) => {
          const document = { components: { schemas: { Shared: SHARED, Gadget: gadget, Widget: { type: 'object', properties: { id: { type: 'integer' } } } } } };
          const collections = [
            { name: '/gadgets', idField: 'id', idKind: kind, schemaPointer: '/components/schemas/Gadget' },
            { name: '/shop/widgets', idField: 'id', idKind: 'integer' as const, schemaPointer: '/components/schemas/Widget' },
          ];
          const seeded = seedCollections(document, collections, { seed, count });
          expect(JSON.stringify([...seedCollections(document, collections, { seed, count })])).toBe(JSON.stringify([...seeded]));
          const gadgets = seeded.get('/gadgets') ?? [];
          expect(gadgets).toHaveLength(count);
          expect(new Set(gadgets.map((g) => g.id)).size).toBe(count);
          const check = schemaOracle(document, '/components/schemas/Gadget');
          for (const gadget of gadgets) expect(check(gadget), JSON.stringify(check.errors)).toBe(true);
          const widgetIds = new Set(seeded.get('/shop/widgets')?.map((w) => w.id));
          for (const gadget of gadgets) if ('widgetId' in gadget) expect(widgetIds.has(gadget.widgetId)).toBe(true);
        }),
        { ...RUNS, numRuns: 80 },
      );
    },
    LONG,
  );
});
