/**
 * The tools' argument schemas, derived from the control spec without HTTP:
 * whole (no `$ref` or OpenAPI-only keyword left), valid JSON Schema, and
 * equal to what the spec says; and how a call's arguments are split into
 * the request.
 */
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { loadControlSpec } from '../../../src/server/control-spec.js';
import { createTools, toRequest, ArgumentError } from '../../../src/mcp/tools.js';
import { toolArguments } from '../../../src/mcp/tool-schemas.js';
import { loadSpec } from '../../../src/openapi/load-spec.js';

const control = loadControlSpec();
const api = loadSpec();
const tools = createTools(control, api);
const tool = (name: string) => tools.find((t) => t.name === name) as (typeof tools)[number];

/** Every key used anywhere in a JSON value. */
const keysIn = (value: unknown): string[] =>
  Array.isArray(value) ? value.flatMap(keysIn)
  : value && typeof value === 'object' ? Object.entries(value).flatMap(([k, v]) => [k, ...keysIn(v)])
  : [];

describe('MCP tool schemas, derived from spec/sandbox-control.yaml', () => {
  it('are whole JSON Schemas: no $ref, no OpenAPI-only keyword, each compiles', () => {
    const ajv = new Ajv({ strict: false });
    for (const { name, schema } of tools) {
      expect(
        keysIn(schema).filter((k) => ['$ref', 'nullable', 'example'].includes(k)),
        name,
      ).toEqual([]);
      expect(() => ajv.compile(schema), name).not.toThrow();
    }
  });

  it("carry the spec's own constraints: FaultInput's, the interface's Pet through the control spec's external $ref", () => {
    const faults = tool('add_fault').schema;
    expect(faults.required).toEqual(['operationId']);
    expect(faults.additionalProperties).toBe(false);
    // OpenAPI 3.0's boolean exclusiveMinimum, made a bound.
    expect(faults.properties.rate).toMatchObject({ exclusiveMinimum: 0, maximum: 1 });
    expect(faults.properties.rate).not.toHaveProperty('minimum');
    const pet = (api.document.components as { schemas: { Pet: { required: string[] } } }).schemas.Pet;
    expect(tool('load_fixture').schema.properties.pets).toMatchObject({ type: 'array', items: { required: pet.required } });
    expect(tool('restore_checkpoint').schema).toMatchObject({ required: ['name'], properties: { name: { pattern: expect.any(String) } } });
  });

  it("take the items of the APIs served by convention in load_fixture's apis, as the control spec's ItemCollection", () => {
    const apis = tool('load_fixture').schema.properties.apis;
    expect(apis).toMatchObject({ type: 'object', additionalProperties: { type: 'object', additionalProperties: { required: ['items'] } } });
    const check = new Ajv({ strict: false }).compile(tool('load_fixture').schema);
    expect(check({ apis: { '/api/v2': { '/items': { items: [{ id: 'a' }] } } } })).toBe(true);
    expect(check({ apis: { '/api/v2': { '/items': { nextId: 0, items: [] } } } })).toBe(false);
    expect(check({ apis: { '/api/v2': { '/items': { rows: [] } } } })).toBe(false);
  });

  it('refuse an operation whose header no argument carries (a copy names its target in X-Sandbox-Target-Key)', () => {
    expect(() => toolArguments(control, api, 'copyWorkspace')).toThrow(/X-Sandbox-Target-Key/);
  });
});

describe("a call's arguments, split into the request", () => {
  it('key to X-Sandbox-Key, path and query parameters as text, the rest in the body', () => {
    expect(toRequest(tool('remove_fault'), { faultId: 3, key: 'key-b' })).toEqual({ path: { faultId: '3' }, query: {}, body: undefined, key: 'key-b' });
    expect(toRequest(tool('read_journal'), { limit: 5 })).toEqual({ path: {}, query: { limit: '5' }, body: undefined, key: undefined });
    expect(toRequest(tool('add_fault'), { operationId: 'listPets', status: 503, extra: 1 }).body).toEqual({ operationId: 'listPets', status: 503, extra: 1 });
  });

  it('refuses what no request can carry: a missing path parameter, an argument of a tool that takes none such, a key that is not text', () => {
    expect(() => toRequest(tool('restore_checkpoint'), {})).toThrow(new ArgumentError("Argument 'name' is required."));
    expect(() => toRequest(tool('reset'), { seed: 1 })).toThrow(/reset takes no argument 'seed'/);
    expect(() => toRequest(tool('list_faults'), { key: { a: 1 } })).toThrow(/'key' must be a string/);
  });
});
