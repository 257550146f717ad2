/**
 * The one reader of a schema's `$ref`s and `allOf` (openapi/schema-ref.ts),
 * and the three readers folded over it: the conventions' shape, the error
 * bodies' flat parts and seeding's effective schema see the same properties
 * through references and composition, and stop alike at a reference that
 * leads nowhere or in circles.
 */
import { describe, expect, it } from 'vitest';
import { flattenSchema } from '../../../src/openapi/schema-flat.js';
import { followRef, foldSchema, located, nodeAt } from '../../../src/openapi/schema-ref.js';
import { shapeAt } from '../../../src/openapi/schema-shape.js';
import { effective } from '../../../src/store/schema-node.js';

const DOCUMENT = {
  components: {
    schemas: {
      Named: { type: 'object', required: ['name'], properties: { name: { type: 'string', minLength: 1 } } },
      'Dated/Thing': { type: 'object', properties: { at: { type: 'string', format: 'date-time' } } },
      Alias: { $ref: '#/components/schemas/Item' },
      Item: {
        allOf: [
          { $ref: '#/components/schemas/Named' },
          { $ref: '#/components/schemas/Dated~1Thing' },
          { required: ['id'], properties: { id: { type: 'integer' } } },
        ],
        oneOf: [{ properties: { kind: { enum: ['a'] } } }, { properties: { kind: { enum: ['b'] } } }],
      },
      Loop: { $ref: '#/components/schemas/Loop' },
      Away: { $ref: 'other.yaml#/Thing' },
      Deep: { allOf: [{ $ref: '#/components/schemas/Deep' }], properties: { x: { type: 'string' } } },
    },
  },
};
const at = (name: string) => `/components/schemas/${name}`;

describe('the one reader of references and composition', () => {
  it('finds a node by pointer (escapes, a leading #, the document itself)', () => {
    expect(nodeAt(DOCUMENT, '#/components/schemas/Dated~1Thing')).toBe(DOCUMENT.components.schemas['Dated/Thing']);
    expect(nodeAt(DOCUMENT, '')).toBe(DOCUMENT);
    expect(nodeAt(DOCUMENT, '/components/nothing/here')).toBeUndefined();
  });

  it('follows a chain of local references to where it ends; none that goes in circles or out of the document', () => {
    expect(located(DOCUMENT, at('Alias'))).toEqual({ node: DOCUMENT.components.schemas.Item, pointer: at('Item') });
    expect(followRef(DOCUMENT, { $ref: '#/components/schemas/Named' })?.pointer).toBe(at('Named'));
    expect(located(DOCUMENT, at('Loop'))).toBeUndefined();
    expect(located(DOCUMENT, at('Away'))).toBeUndefined();
  });

  it('folds the parts in order, each member where it is declared; the first oneOf branch only when asked; recursion stops', () => {
    const pointers = (firstBranch: boolean) =>
      foldSchema<string[]>(DOCUMENT, nodeAt(DOCUMENT, at('Alias')), at('Alias'), {
        leaf: (p) => [p.pointer],
        join: (a, b) => [...a, ...b],
        firstBranch,
        maxDepth: 4,
      });
    expect(pointers(false)).toEqual([at('Item'), at('Named'), at('Dated~1Thing'), `${at('Item')}/allOf/2`]);
    expect(pointers(true)).toEqual([at('Item'), at('Named'), at('Dated~1Thing'), `${at('Item')}/allOf/2`, `${at('Item')}/oneOf/0`]);
    const deep = foldSchema<number>(DOCUMENT, nodeAt(DOCUMENT, at('Deep')), at('Deep'), { leaf: () => 1, join: (a, b) => a + b, maxDepth: 3 });
    expect(deep).toBe(4);
  });

  it('gives the conventions, the error bodies and seeding the same properties through $ref and allOf', () => {
    expect(Object.keys(shapeAt(DOCUMENT, at('Alias'))?.properties ?? {}).sort()).toEqual(['at', 'id', 'name']);
    expect(shapeAt(DOCUMENT, at('Alias'))?.required.sort()).toEqual(['id', 'name']);
    const parts = flattenSchema(DOCUMENT, { $ref: '#/components/schemas/Alias' });
    expect(parts.flatMap((p) => Object.keys((p.properties as object | undefined) ?? {})).sort()).toEqual(['at', 'id', 'kind', 'name']);
    const seeded = effective(DOCUMENT, { $ref: '#/components/schemas/Alias' });
    expect(Object.keys(seeded.properties as object).sort()).toEqual(['at', 'id', 'kind', 'name']);
    expect((seeded.required as string[]).sort()).toEqual(['id', 'name']);
    for (const broken of ['Loop', 'Away']) {
      expect(shapeAt(DOCUMENT, at(broken))).toBeUndefined();
      expect(flattenSchema(DOCUMENT, { $ref: `#${at(broken)}` })).toEqual([]);
      expect(effective(DOCUMENT, { $ref: `#${at(broken)}` })).toEqual({});
    }
  });
});
