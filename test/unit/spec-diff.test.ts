/**
 * The spec comparison behind `petstore-sandbox diff`: each change planted in
 * a copy of a real spec (test/specs/diff/, derived from
 * test/specs/petstore-1.1.yaml and spec/openapi.yaml) is found, with the
 * operation and the place it is in, and marked breaking or compatible for a
 * consumer in the direction the data flows (docs/spec-diff.md).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { diffSpecs, documentProblem, type SpecChange } from '../../src/openapi/spec-diff.js';

type Json = Record<string, unknown>;

const read = (file: string): Json => parse(readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8')) as Json;
const V1_0 = read('spec/openapi.yaml');
const V1_1 = read('test/specs/petstore-1.1.yaml');
const planted = (name: string) => read(`test/specs/diff/${name}.yaml`);

/** A change as the tests name it: breaking or not, its kind, its operation and where in it. */
const brief = (c: SpecChange) => `${c.breaking ? 'breaking' : 'compatible'} ${c.kind} ${c.operation} @ ${c.where}`;
const briefs = (before: Json, after: Json) => diffSpecs(before, after).changes.map(brief);

describe('diffSpecs on the Pet Store', () => {
  it('finds no breaking change from 1.0 to 1.1, which only adds the orders', () => {
    const diff = diffSpecs(V1_0, V1_1);
    expect(diff.breaking).toBe(0);
    expect(diff.changes.map(brief)).toEqual([
      'compatible operation-added GET /store/orders @ operation',
      'compatible operation-added POST /store/orders @ operation',
      'compatible operation-added GET /store/orders/{orderId} @ operation',
      'compatible operation-added DELETE /store/orders/{orderId} @ operation',
    ]);
    expect(diff.changes[0]).toMatchObject({ operationId: 'listOrders' });
  });

  it('finds the orders removed from 1.1 back to 1.0, each breaking', () => {
    const diff = diffSpecs(V1_1, V1_0);
    expect([diff.breaking, diff.compatible]).toEqual([4, 0]);
    expect(diff.changes.every((c) => c.kind === 'operation-removed' && c.breaking)).toBe(true);
  });

  it('finds nothing between a spec and itself', () => {
    expect(diffSpecs(V1_1, read('test/specs/petstore-1.1.yaml'))).toEqual({ breaking: 0, compatible: 0, changes: [] });
  });
});

describe('diffSpecs finds each planted breaking change', () => {
  const cases: [name: string, expected: string[]][] = [
    ['removed-operation', ['breaking operation-removed DELETE /store/orders/{orderId} @ operation']],
    [
      'removed-response-field',
      [
        'breaking field-removed GET /pets @ response 200: [].status',
        'breaking field-removed POST /pets @ response 201: status',
        'breaking field-removed GET /pets/{petId} @ response 200: status',
      ],
    ],
    [
      // A value a client may send is gone: the requests break, the answers only get fewer values.
      'narrowed-enum',
      [
        'breaking enum-narrowed GET /store/orders @ query parameter `status`',
        'breaking enum-narrowed POST /store/orders @ request body: status',
        'compatible enum-narrowed GET /store/orders @ response 200: [].status',
        'compatible enum-narrowed POST /store/orders @ response 201: status',
        'compatible enum-narrowed GET /store/orders/{orderId} @ response 200: status',
      ],
    ],
    [
      // A value a strict client does not know may come back: the answers break, the requests only accept more.
      'widened-enum',
      [
        'breaking enum-widened GET /pets @ response 200: [].status',
        'breaking enum-widened POST /pets @ response 201: status',
        'breaking enum-widened GET /pets/{petId} @ response 200: status',
        'compatible enum-widened GET /pets @ query parameter `status`',
        'compatible enum-widened POST /pets @ request body: status',
      ],
    ],
    ['new-required-field', ['breaking field-required POST /pets @ request body: status']],
    ['new-required-parameter', ['breaking parameter-required GET /store/orders @ query parameter `shop`']],
    [
      'changed-type',
      [
        'breaking type-changed GET /store/orders @ response 200: [].quantity',
        'breaking type-changed POST /store/orders @ request body: quantity',
        'breaking type-changed POST /store/orders @ response 201: quantity',
        'breaking type-changed GET /store/orders/{orderId} @ response 200: quantity',
      ],
    ],
    ['removed-success-status', ['breaking status-removed POST /store/orders @ response 201', 'compatible status-added POST /store/orders @ response 200']],
    ['added-security', ['breaking security-added GET /store/orders @ security']],
  ];
  it.each(cases)('%s', (name, expected) => {
    expect(briefs(V1_1, planted(name))).toEqual(expected);
  });

  it('says what changed in words: the type, the values, the schemes', () => {
    const what = (name: string) => diffSpecs(V1_1, planted(name)).changes[0]?.what;
    expect(what('changed-type')).toBe('type changed from integer to string');
    expect(what('narrowed-enum')).toBe('enum values removed: `"delivered"`');
    expect(what('added-security')).toBe('requires `bearerAuth` and `storeKey` (was `bearerAuth`)');
  });

  it('a security requirement added to an open operation breaks; the operation opened is compatible', () => {
    const open = planted('open-listing');
    expect(briefs(open, V1_0)).toEqual(['breaking security-added GET /pets @ security']);
    expect(briefs(V1_0, open)).toEqual(['compatible security-relaxed GET /pets @ security']);
  });
});

describe('diffSpecs passes compatible changes', () => {
  it('an optional request field, a new response field and a new operation: no breaking change', () => {
    const diff = diffSpecs(V1_1, planted('compatible'));
    expect(diff.breaking).toBe(0);
    expect(diff.changes.map(brief)).toEqual([
      'compatible field-added GET /pets @ response 200: [].nickname',
      'compatible field-added POST /pets @ request body: nickname',
      'compatible field-added POST /pets @ response 201: nickname',
      'compatible field-added GET /pets/{petId} @ response 200: nickname',
      'compatible operation-added GET /store/inventory @ operation',
    ]);
  });

  it('a path parameter renamed changes no request', () => {
    const renamed = structuredClone(V1_1) as { paths: Record<string, { get: { parameters: { name: string }[] } }> };
    const item = renamed.paths['/pets/{petId}'];
    if (item === undefined) throw new Error('no /pets/{petId} in 1.1');
    (item.get.parameters[0] as { name: string }).name = 'id';
    renamed.paths['/pets/{id}'] = item;
    delete renamed.paths['/pets/{petId}'];
    expect(diffSpecs(V1_1, renamed as Json).changes).toEqual([]);
  });

  it('lists the breaking changes first', () => {
    const kinds = diffSpecs(V1_1, planted('removed-success-status')).changes.map((c) => c.breaking);
    expect(kinds).toEqual([true, false]);
  });
});

describe('diffSpecs on a recursive schema', () => {
  it('ends, and reports a change once, not once per level', () => {
    const tree = (leaf: string): Json => ({
      openapi: '3.0.3',
      paths: { '/nodes': { get: { responses: { '200': { content: { 'application/json': { schema: { $ref: '#/components/schemas/Node' } } } } } } } },
      components: {
        schemas: {
          Node: {
            type: 'object',
            properties: {
              name: { type: leaf },
              parent: { $ref: '#/components/schemas/Node' },
              children: { type: 'array', items: { $ref: '#/components/schemas/Node' } },
            },
          },
        },
      },
    });
    expect(briefs(tree('string'), tree('integer'))).toEqual(['breaking type-changed GET /nodes @ response 200: name']);
  });
});

describe('documentProblem', () => {
  it('accepts the specs the sandbox ships and serves', () => {
    expect([documentProblem(V1_0), documentProblem(V1_1), documentProblem(read('test/specs/inventory-v2.yaml'))]).toEqual([undefined, undefined, undefined]);
  });

  it('names a $ref that points nowhere, one not local, and a document that is not OpenAPI 3', () => {
    expect(documentProblem(read('test/specs/broken-ref.yaml'))).toBe("$ref '#/components/schemas/Thing' points nowhere");
    expect(documentProblem({ openapi: '3.0.3', paths: { '/x': { $ref: 'other.yaml#/x' } } })).toMatch(/^\$ref 'other.yaml#\/x' is not local/);
    expect(documentProblem({ swagger: '2.0', paths: {} })).toMatch(/not an OpenAPI 3 document/);
    expect(documentProblem(null)).toMatch(/not an OpenAPI document/);
    expect(documentProblem({ openapi: '3.0.3' })).toBe('no `paths`');
  });
});
