/** The conventional mode's item making: RFC 7396 merge patches, server-owned fields, defaults, names in messages. */
import { describe, expect, it } from 'vitest';
import { itemRules, makeItem, mergePatch, singular, withoutOwned } from '../../../../src/modes/conventional/items.js';
import { indexSpec } from '../../../../src/openapi/spec.js';

describe('mergePatch', () => {
  // The examples of RFC 7396, appendix A.
  it.each([
    [{ a: 'b' }, { a: 'c' }, { a: 'c' }],
    [{ a: 'b' }, { b: 'c' }, { a: 'b', b: 'c' }],
    [{ a: 'b' }, { a: null }, {}],
    [{ a: 'b', b: 'c' }, { a: null }, { b: 'c' }],
    [{ a: ['b'] }, { a: 'c' }, { a: 'c' }],
    [{ a: 'c' }, { a: ['b'] }, { a: ['b'] }],
    [{ a: { b: 'c' } }, { a: { b: 'd', c: null } }, { a: { b: 'd' } }],
    [{ a: [{ b: 'c' }] }, { a: [1] }, { a: [1] }],
    [
      ['a', 'b'],
      ['c', 'd'],
      ['c', 'd'],
    ],
    [{ a: 'b' }, ['c'], ['c']],
    [{ a: 'foo' }, null, null],
    [{ a: 'foo' }, 'bar', 'bar'],
    [{ e: null }, { a: 1 }, { e: null, a: 1 }],
    [[1, 2], { a: 'b', c: null }, { a: 'b' }],
    [{}, { a: { bb: { ccc: null } } }, { a: { bb: {} } }],
  ])('%j patched with %j is %j', (target, patch, result) => {
    expect(mergePatch(target, patch)).toEqual(result);
  });

  it('leaves the target unchanged and keeps a member named __proto__ a plain member', () => {
    const target = { a: { b: 1 } };
    const merged = mergePatch(target, JSON.parse('{"__proto__": {"polluted": true}, "a": {"c": 2}}')) as Record<string, unknown>;
    expect(target).toEqual({ a: { b: 1 } });
    expect(Object.getPrototypeOf(merged)).toBe(Object.prototype);
    expect(Object.hasOwn(merged, '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(merged.a).toEqual({ b: 1, c: 2 });
  });
});

const spec = indexSpec('hand.yaml', {
  openapi: '3.0.3',
  paths: {},
  components: {
    schemas: {
      Base: { type: 'object', required: ['revision'], properties: { id: { type: 'integer' }, revision: { type: 'integer', readOnly: true, minimum: 1 } } },
      Thing: {
        allOf: [
          { $ref: '#/components/schemas/Base' },
          {
            type: 'object',
            properties: {
              name: { type: 'string' },
              size: { type: 'string', default: 'M' },
              updatedOn: { type: 'string', format: 'date', readOnly: true },
              token: { type: 'string', format: 'uuid', readOnly: true },
              note: { type: 'string', readOnly: true },
            },
          },
        ],
      },
    },
  },
});

describe('makeItem', () => {
  const rules = itemRules(spec, '/components/schemas/Thing', 'id');
  const making = { rules, idField: 'id', id: 7, now: () => new Date('2026-11-29T06:00:00Z'), newId: () => 'u-1' };

  it('reads server-owned fields, defaults and what to make through allOf', () => {
    expect(rules).toEqual({
      readOnly: ['id', 'revision', 'updatedOn', 'token', 'note'],
      defaults: [['size', 'M']],
      made: [
        ['revision', expect.objectContaining({ minimum: 1 })],
        ['updatedOn', expect.objectContaining({ format: 'date' })],
        ['token', expect.objectContaining({ format: 'uuid' })],
      ],
    });
  });

  it('puts the id first, drops sent server-owned fields, fills defaults, makes required or formatted server-owned fields', () => {
    expect(makeItem({ name: 'a', note: 'mine', revision: 9, id: 1 }, making)).toEqual({
      id: 7,
      name: 'a',
      size: 'M',
      revision: 1,
      updatedOn: '2026-11-29',
      token: 'u-1',
    });
    expect(Object.keys(makeItem({ name: 'a' }, making))[0]).toBe('id');
  });

  it('keeps the current server-owned fields on a replace', () => {
    const current = { id: 7, name: 'old', revision: 3, updatedOn: '2020-01-01', token: 't', note: 'kept' };
    expect(makeItem({ name: 'new', size: 'L', note: 'sent' }, making, current)).toEqual({
      id: 7,
      name: 'new',
      size: 'L',
      revision: 3,
      updatedOn: '2020-01-01',
      token: 't',
      note: 'kept',
    });
  });

  it('drops server-owned fields from a patch', () => {
    expect(withoutOwned({ id: 3, name: 'b', revision: 2, size: null }, rules)).toEqual({ name: 'b', size: null });
  });
});

describe('singular', () => {
  it.each([
    ['/pets', 'pet'],
    ['/store/orders', 'order'],
    ['/categories', 'category'],
    ['/boxes', 'box'],
    ['/addresses', 'address'],
    ['/status', 'status'],
    ['/glass', 'glass'],
    ['/inventory', 'inventory'],
  ])('%s -> %s', (collection, name) => {
    expect(singular(collection)).toBe(name);
  });
});
