import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, vi } from 'vitest';
import { createErrorShaper } from '../../../src/openapi/error-shape.js';
import { loadSpec } from '../../../src/openapi/load-spec.js';
import { indexSpec } from '../../../src/openapi/spec.js';
import { createValidators } from '../../../src/openapi/validate.js';

type Json = Record<string, unknown>;

const specFile = (name: string) => fileURLToPath(new URL(`../../specs/${name}`, import.meta.url));
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

/** OpenAPI 3.0's boolean exclusive bounds in the numeric form Ajv reads, written here apart from the sandbox's own. */
function draft7(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(draft7);
  if (!node || typeof node !== 'object') return node;
  const out = Object.fromEntries(Object.entries(node).map(([k, v]) => [k, draft7(v)])) as Json;
  for (const [flag, bound] of [
    ['exclusiveMinimum', 'minimum'],
    ['exclusiveMaximum', 'maximum'],
  ]) {
    if (out[flag as string] === true) [out[flag as string], out[bound as string]] = [out[bound as string], undefined];
    else if (out[flag as string] === false) delete out[flag as string];
  }
  return JSON.parse(JSON.stringify(out)) as unknown;
}

/** A check of a value against the schema at `pointer` of `document`, by an Ajv of the test's own (not the sandbox's validators). */
function oracle(document: object, pointer: string) {
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema(draft7(document) as object, 'doc');
  const validate = ajv.compile({ $ref: `doc#${pointer}` });
  return (value: unknown) => (validate(value) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`));
}

const shaperOf = (document: Json) => {
  const spec = indexSpec('hand-made.yaml', document);
  return createErrorShaper(spec, createValidators(spec));
};

const error = (status: number, code = 'not_found', message = 'No item with id 7.') => ({ code, message, status });
const STATUSES = [400, 401, 403, 404, 405, 408, 413, 415, 500, 501, 503, 507];

describe.each([
  ['spec/openapi.yaml (the embedded Pet Store 1.0)', undefined],
  ['test/specs/petstore-1.1.yaml', specFile('petstore-1.1.yaml')],
])('the error shape of %s', (_name, file) => {
  const spec = loadSpec(file);
  const shape = createErrorShaper(spec, createValidators(spec));

  it('is exactly the sandbox Error, keys in order, for every operation and status, and no operation', () => {
    for (const operationId of [...spec.operations.keys(), undefined]) {
      for (const status of STATUSES) {
        const sandbox = error(status, 'some_code', `Message of ${status}.`);
        expect(JSON.stringify(shape(operationId, status, sandbox))).toBe(JSON.stringify(sandbox));
      }
    }
  });
});

describe('the error shape of test/specs/inventory-v2.yaml ({error, detail})', () => {
  const spec = loadSpec(specFile('inventory-v2.yaml'));
  const shape = createErrorShaper(spec, createValidators(spec));
  const problem = oracle(spec.document, '/components/schemas/Problem');

  it.each([
    ['createItem', 400],
    ['getItem', 404],
    ['deleteItem', 401],
  ])('%s %i: the documented Problem, filled from the error', (operationId, status) => {
    const body = shape(operationId, status, error(status, 'invalid_request', 'Request body field name is required.'));
    expect(body).toEqual({ error: 'invalid_request', detail: 'Request body field name is required.' });
    expect(problem(body)).toEqual([]);
  });

  it('an undocumented status, an open operation, an unknown operation and no operation take the Problem used most', () => {
    for (const [operationId, status] of [
      ['getItem', 500],
      ['health', 503],
      ['noSuchOperation', 404],
      [undefined, 404],
      [undefined, 405],
    ] as const) {
      const body = shape(operationId, status, error(status, 'internal', 'Something failed.'));
      expect(body).toEqual({ error: 'internal', detail: 'Something failed.' });
      expect(problem(body)).toEqual([]);
    }
  });
});

/** A document of one operation whose `status` answer has `schema` in `media`, plus `extra` responses and components. */
function documentOf(schema: unknown, { status = '404', media = 'application/json', responses = {}, components = {} } = {}): Json {
  return {
    openapi: '3.0.3',
    info: { title: 'Hand-made', version: '1.0.0' },
    paths: {
      '/things/{id}': {
        get: {
          operationId: 'getThing',
          parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
          responses: { '200': { description: 'Found.' }, [status]: { description: 'Error.', content: { [media]: { schema } } }, ...responses },
        },
      },
    },
    components: { schemas: {}, ...components },
  };
}

const PROBLEM_DETAILS = {
  type: 'object',
  required: ['title', 'status'],
  additionalProperties: false,
  properties: {
    type: { type: 'string', format: 'uri', default: 'about:blank' },
    title: { type: 'string' },
    status: { type: 'integer', minimum: 100, maximum: 599 },
    detail: { type: 'string' },
    instance: { type: 'string', format: 'uri-reference' },
  },
};

describe('the error shape of hand-made documents', () => {
  it('RFC 9457 problem details (application/problem+json): title, status and detail from the error, a URI left out', () => {
    const document = documentOf(PROBLEM_DETAILS, { media: 'application/problem+json' });
    const body = shaperOf(document)('getThing', 404, error(404));
    expect(body).toEqual({ title: 'not_found', status: 404, detail: 'No item with id 7.' });
    expect(oracle(document, '/paths/~1things~1{id}/get/responses/404/content/application~1problem+json/schema')(body)).toEqual([]);
  });

  it('a required URI `type` takes its default; a required property of no role is sampled from its schema', () => {
    const schema = {
      ...PROBLEM_DETAILS,
      required: ['type', 'title', 'status', 'severity', 'at', 'retries', 'weight', 'trace'],
      properties: {
        ...PROBLEM_DETAILS.properties,
        severity: { type: 'string', enum: ['error', 'warning'] },
        at: { type: 'string', format: 'date-time' },
        retries: { type: 'integer', minimum: 3, exclusiveMinimum: true },
        weight: { type: 'integer', minimum: 2.5 },
        trace: { type: 'array', minItems: 1, items: { type: 'string', minLength: 2 } },
      },
    };
    const document = documentOf(schema);
    const body = shaperOf(document)('getThing', 404, error(404)) as Json;
    expect(body).toMatchObject({ type: 'about:blank', title: 'not_found', status: 404, severity: 'error', retries: 4, weight: 3, trace: ['xx'] });
    expect(oracle(document, '/paths/~1things~1{id}/get/responses/404/content/application~1json/schema')(body)).toEqual([]);
  });

  it('a message longer than its property allows is cut to its maxLength', () => {
    const document = documentOf({
      type: 'object',
      required: ['error', 'detail'],
      properties: { error: { type: 'string' }, detail: { type: 'string', maxLength: 5 } },
    });
    expect(shaperOf(document)('getThing', 404, error(404))).toEqual({ error: 'not_found', detail: 'No it' });
  });

  it('the classic {code: integer, message}: the status as the code', () => {
    const document = documentOf(
      { $ref: '#/components/schemas/Failure' },
      {
        components: {
          schemas: {
            Failure: { type: 'object', required: ['code', 'message'], properties: { code: { type: 'integer', format: 'int32' }, message: { type: 'string' } } },
          },
        },
      },
    );
    const body = shaperOf(document)('getThing', 404, error(404));
    expect(body).toEqual({ code: 404, message: 'No item with id 7.' });
    expect(oracle(document, '/components/schemas/Failure')(body)).toEqual([]);
  });

  it('an error object within the body is filled the same way; an untyped status takes the number', () => {
    const inner = { type: 'object', required: ['code', 'message'], properties: { code: { type: 'integer' }, message: { type: 'string' }, status: {} } };
    const document = documentOf({ type: 'object', required: ['error'], additionalProperties: false, properties: { error: inner } });
    const body = shaperOf(document)('getThing', 404, error(404));
    expect(body).toEqual({ error: { code: 404, message: 'No item with id 7.', status: 404 } });
    expect(oracle(document, '/paths/~1things~1{id}/get/responses/404/content/application~1json/schema')(body)).toEqual([]);
  });

  it('an allOf of $refs is read as one schema; a name the error cannot meet takes its enum', () => {
    const document = documentOf(
      { allOf: [{ $ref: '#/components/schemas/Base' }, { type: 'object', required: ['reason'], properties: { reason: { type: 'string', maxLength: 200 } } }] },
      {
        components: {
          schemas: { Base: { type: 'object', required: ['error'], properties: { error: { type: 'string', enum: ['missing', 'invalid'] } } } },
        },
      },
    );
    const body = shaperOf(document)('getThing', 404, error(404));
    expect(body).toEqual({ error: 'missing', reason: 'No item with id 7.' });
  });

  it('falls back to the sandbox Error when the filled body fails its schema, or the schema is no object, or cannot be followed', () => {
    const cannotMeet = {
      type: 'object',
      required: ['error', 'ref'],
      properties: { error: { type: 'string' }, ref: { type: 'string', pattern: '^[0-9]{3}$' } },
    };
    const tooFew = { type: 'object', required: ['error'], minProperties: 2, properties: { error: { type: 'string' } } };
    for (const schema of [cannotMeet, tooFew, { type: 'string' }, { $ref: '#/components/schemas/Missing' }]) {
      const body = shaperOf(documentOf(schema))('getThing', 404, error(404));
      expect(JSON.stringify(body)).toBe(JSON.stringify(error(404)));
    }
  });

  it('a status the operation does not list: its 4XX range, else its default response', () => {
    const byRange = { type: 'object', required: ['title'], properties: { title: { type: 'string' } }, additionalProperties: false };
    const byDefault = { type: 'object', required: ['name'], properties: { name: { type: 'string' } }, additionalProperties: false };
    const other = { type: 'object', required: ['error'], properties: { error: { type: 'string' } }, additionalProperties: false };
    const json = (schema: unknown) => ({ description: 'Error.', content: { 'application/json': { schema } } });
    const shape = shaperOf(documentOf(other, { status: '400', responses: { '4XX': json(byRange), default: json(byDefault) } }));
    expect(shape('getThing', 400, error(400))).toEqual({ error: 'not_found' });
    expect(shape('getThing', 409, error(409))).toEqual({ title: 'not_found' });
    expect(shape('getThing', 503, error(503))).toEqual({ name: 'not_found' });
  });

  it('with nothing documented for the status, the schema used most for 4xx and 5xx across operations', () => {
    const document = documentOf({ $ref: '#/components/schemas/Rare' }, { status: '400' });
    const json = (name: string) => ({ description: 'Error.', content: { 'application/json': { schema: { $ref: `#/components/schemas/${name}` } } } });
    document.paths = {
      ...(document.paths as Json),
      '/a': { get: { operationId: 'a', responses: { '200': { description: 'OK.' }, '401': json('Common'), '500': json('Common') } } },
      '/b': { get: { operationId: 'b', responses: { '200': { description: 'OK.' }, '404': json('Common') } } },
    };
    document.components = {
      schemas: {
        Rare: { type: 'object', required: ['error'], properties: { error: { type: 'string' } } },
        Common: { type: 'object', required: ['title', 'detail'], properties: { title: { type: 'string' }, detail: { type: 'string' } } },
      },
    };
    const shape = shaperOf(document);
    expect(shape('getThing', 400, error(400))).toEqual({ error: 'not_found' });
    expect(shape('getThing', 404, error(404))).toEqual({ title: 'not_found', detail: 'No item with id 7.' });
    expect(shape(undefined, 405, error(405))).toEqual({ title: 'not_found', detail: 'No item with id 7.' });
    // On a tie, the first in the spec's order: Rare (getThing's 400) and Common both used once.
    const tied = structuredClone(document);
    (tied.paths as Json)['/a'] = { get: { operationId: 'a', responses: { '200': { description: 'OK.' }, '401': json('Common') } } };
    delete (tied.paths as Json)['/b'];
    expect(shaperOf(tied)(undefined, 404, error(404))).toEqual({ error: 'not_found' });
  });

  it('plans once per operation and status: the schema check is made once, whatever the number of errors', () => {
    const document = documentOf({ type: 'object', required: ['error'], properties: { error: { type: 'string' } } });
    const spec = indexSpec('hand-made.yaml', document);
    const validators = createValidators(spec);
    const made = vi.spyOn(validators, 'schema');
    const shape = createErrorShaper(spec, validators);
    for (let i = 0; i < 5; i++) expect(shape('getThing', 404, error(404, `code_${i}`))).toEqual({ error: `code_${i}` });
    expect(made).toHaveBeenCalledTimes(1);
  });
});
