/**
 * Schemas prepared for Ajv, once, when validators are compiled: OpenAPI 3.0
 * forms rewritten as draft 7, int64 nodes marked for the exact keyword
 * (validate.ts), parameters gathered into one object schema per kind, with
 * their schemas inlined.
 */
import type { OperationSpec } from './spec.js';

type Json = Record<string, unknown>;

/**
 * An OpenAPI 3.0 document with its schema keywords in the form Ajv 8
 * (JSON Schema draft 7) reads. OpenAPI 3.0 writes an exclusive bound as a
 * boolean beside `minimum`/`maximum` (`minimum: 0, exclusiveMinimum: true`);
 * draft 7 makes the bound itself the value (`exclusiveMinimum: 0`), and Ajv
 * refuses to compile the boolean form. Nothing else differs for the
 * keywords these specs use. The structure is kept, so JSON pointers into the
 * document still address the same nodes.
 */
export function toDraft7(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(toDraft7);
  if (!node || typeof node !== 'object') return node;
  const out: Json = {};
  for (const [key, value] of Object.entries(node)) out[key] = toDraft7(value);
  for (const [flag, bound] of [
    ['exclusiveMinimum', 'minimum'],
    ['exclusiveMaximum', 'maximum'],
  ] as const) {
    if (typeof out[flag] !== 'boolean') continue;
    if (out[flag] === true && typeof out[bound] === 'number') {
      out[flag] = out[bound];
      delete out[bound];
    } else {
      delete out[flag];
    }
  }
  return out;
}

/**
 * A schema document whose `type: integer, format: int64` nodes check with
 * `x-int64` instead: Ajv's `integer` type refuses a bigint, so it cannot
 * check an int64 past 2^53 held exactly. Every other keyword of the node
 * stays, and so does the structure (JSON pointers address the same nodes).
 */
export function withExactInt64(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withExactInt64);
  if (!node || typeof node !== 'object') return node;
  const out: Json = {};
  for (const [key, value] of Object.entries(node)) out[key] = withExactInt64(value);
  if (out.type === 'integer' && out.format === 'int64') {
    delete out.type;
    delete out.format;
    out['x-int64'] = true;
  }
  return out;
}

/**
 * A copy of the schema at `pointer` whose `$ref`s point into the spec
 * documents by id. Parameter schemas are inlined this way (not `$ref`'d) because Ajv
 * applies `default`s only to schemas it reaches without a `$ref`.
 */
export function inline(id: string, document: unknown, pointer: string): unknown {
  const node = pointer
    .split('/')
    .slice(1)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce<unknown>((acc, key) => (acc as Record<string, unknown>)[key], document);
  const rewrite = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(rewrite);
    if (!value || typeof value !== 'object') return value;
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, k === '$ref' && typeof v === 'string' ? absolute(id, v) : rewrite(v)]));
  };
  return rewrite(node);
}

/** A `$ref` as Ajv finds it from a schema without a base: `#/x` of this document, `./other.yaml#/x` beside it. */
const absolute = (id: string, ref: string) => (ref.startsWith('#') ? `${id}${ref}` : ref.replace(/^\.\//, ''));

export type ParamPlace = 'query' | 'path' | 'header';

/** The object schema of an operation's parameters of one kind; each parameter's schema from `schemaAt`. */
export function parametersSchema(op: OperationSpec, where: ParamPlace, schemaAt: (pointer: string) => unknown) {
  const params = op.parameters.filter((p) => p.in === where);
  return {
    type: 'object',
    properties: Object.fromEntries(params.map((p) => [p.name, schemaAt(p.schemaPointer)])),
    required: params.filter((p) => p.required).map((p) => p.name),
  };
}

/**
 * Ajv coerces strings with `Number()`, which also reads `0x10`, `1e2`,
 * `+5` and ` 7`. A parameter's text must be plain decimal notation of its
 * schema type before it is coerced.
 */
export function notation(schema: ReturnType<typeof parametersSchema>): { name: string; pattern: RegExp; message: string }[] {
  return Object.entries(schema.properties).flatMap(([name, s]) => {
    const type = (s as { type?: unknown }).type;
    const pattern =
      type === 'integer' ? /^-?\d+$/
      : type === 'number' ? /^-?\d+(\.\d+)?$/
      : undefined;
    return pattern ? [{ name, pattern, message: `must be ${String(type)}` }] : [];
  });
}
