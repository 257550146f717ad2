/**
 * The shape of a Pact specification V4 file with synchronous HTTP
 * interactions, as a JSON Schema written from the specification
 * (pact-foundation/pact-specification, branch version-4), and a check of a
 * file against it. It shares nothing with the code that records pacts.
 */
import { Ajv } from 'ajv';

const strings = { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } };
const matcher = {
  type: 'object',
  required: ['match'],
  properties: {
    match: {
      enum: [
        'equality',
        'regex',
        'type',
        'include',
        'integer',
        'decimal',
        'number',
        'timestamp',
        'time',
        'date',
        'null',
        'boolean',
        'contentType',
        'values',
        'semver',
        'eachKey',
        'eachValue',
        'notEmpty',
        'arrayContains',
        'statusCode',
      ],
    },
    regex: { type: 'string' },
    min: { type: 'integer', minimum: 0 },
    max: { type: 'integer', minimum: 0 },
  },
};
const rules = {
  type: 'object',
  propertyNames: { pattern: '^\\$' },
  additionalProperties: {
    type: 'object',
    required: ['matchers'],
    properties: { combine: { enum: ['AND', 'OR'] }, matchers: { type: 'array', minItems: 1, items: matcher } },
  },
};
const body = {
  type: 'object',
  required: ['content'],
  properties: { content: {}, contentType: { type: 'string' }, encoded: { type: ['boolean', 'string'] } },
};

/** A V4 pact whose interactions are all `Synchronous/HTTP`. */
export const PACT_V4_HTTP_SCHEMA = {
  type: 'object',
  required: ['consumer', 'provider', 'interactions', 'metadata'],
  properties: {
    consumer: { type: 'object', required: ['name'], properties: { name: { type: 'string', minLength: 1 } } },
    provider: { type: 'object', required: ['name'], properties: { name: { type: 'string', minLength: 1 } } },
    metadata: {
      type: 'object',
      required: ['pactSpecification'],
      properties: { pactSpecification: { type: 'object', required: ['version'], properties: { version: { const: '4.0' } } } },
    },
    interactions: {
      type: 'array',
      items: {
        type: 'object',
        required: ['type', 'description', 'request', 'response'],
        properties: {
          type: { const: 'Synchronous/HTTP' },
          description: { type: 'string', minLength: 1 },
          pending: { type: 'boolean' },
          providerStates: {
            type: 'array',
            items: { type: 'object', required: ['name'], properties: { name: { type: 'string' }, params: { type: 'object' } } },
          },
          request: {
            type: 'object',
            required: ['method', 'path'],
            additionalProperties: false,
            properties: {
              method: { enum: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'] },
              path: { type: 'string', pattern: '^/' },
              query: strings,
              headers: strings,
              body,
              matchingRules: { type: 'object', properties: { header: { type: 'object' }, body: rules, query: { type: 'object' }, path: { type: 'object' } } },
              generators: { type: 'object' },
            },
          },
          response: {
            type: 'object',
            required: ['status'],
            additionalProperties: false,
            properties: {
              status: { type: 'integer', minimum: 100, maximum: 599 },
              headers: strings,
              body,
              matchingRules: { type: 'object', properties: { header: { type: 'object' }, body: rules } },
              generators: { type: 'object' },
            },
          },
        },
      },
    },
  },
} as const;

const validate = new Ajv({ allErrors: true, strict: false }).compile(PACT_V4_HTTP_SCHEMA);

/** Problems of a pact file against the V4 shape, as `path: message` (none when it conforms). */
export function pactV4Problems(pact: unknown): string[] {
  return validate(pact) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || '/'}: ${e.message ?? 'invalid'}`);
}
