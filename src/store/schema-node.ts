/**
 * Schemas of an OpenAPI 3.0 document as seeding reads them: local `$ref`s
 * resolved, `allOf` merged into one schema and `oneOf`/`anyOf` read as their
 * first branch, by the one reader of references and composition
 * (`openapi/schema-ref.ts`), with seeding's own merge of two schemas.
 */
import { foldSchema } from '../openapi/schema-ref.js';

export type Schema = Record<string, unknown>;

const isObject = (value: unknown): value is Schema => typeof value === 'object' && value !== null && !Array.isArray(value);

const LOWER_BOUNDS = new Set(['minLength', 'minItems', 'minProperties']);
const UPPER_BOUNDS = new Set(['maxLength', 'maxItems', 'maxProperties']);

/** The tighter of two numeric bounds, with its exclusive flag (OpenAPI 3.0's boolean form). */
function tighter(into: Schema, from: Schema, bound: 'minimum' | 'maximum') {
  const flag = bound === 'minimum' ? 'exclusiveMinimum' : 'exclusiveMaximum';
  const mine = into[bound];
  const theirs = from[bound];
  if (typeof theirs !== 'number') return;
  const takeTheirs = typeof mine !== 'number' || (bound === 'minimum' ? theirs > mine : theirs < mine);
  if (!takeTheirs) return;
  into[bound] = theirs;
  if (from[flag] === undefined) delete into[flag];
  else into[flag] = from[flag];
}

/** Two schemas as one that asks what both ask (an `allOf` of them), for the keywords seeding reads. */
function merge(a: Schema, b: Schema): Schema {
  const out: Schema = { ...a };
  for (const [key, value] of Object.entries(b)) {
    const mine = out[key];
    if (key === 'properties' && isObject(mine) && isObject(value)) {
      const properties: Schema = { ...mine };
      for (const [name, schema] of Object.entries(value)) properties[name] = name in mine ? { allOf: [mine[name], schema] } : schema;
      out.properties = properties;
    } else if (key === 'required' && Array.isArray(mine) && Array.isArray(value)) {
      out.required = [...new Set([...(mine as unknown[]), ...(value as unknown[])])];
    } else if (key === 'enum' && Array.isArray(mine) && Array.isArray(value)) {
      const both = mine.filter((v) => value.some((w) => JSON.stringify(v) === JSON.stringify(w)));
      out.enum = both.length > 0 ? both : value;
    } else if (LOWER_BOUNDS.has(key) && typeof mine === 'number' && typeof value === 'number') {
      out[key] = Math.max(mine, value);
    } else if (UPPER_BOUNDS.has(key) && typeof mine === 'number' && typeof value === 'number') {
      out[key] = Math.min(mine, value);
    } else if (key === 'nullable') {
      continue;
    } else if (key === 'readOnly' || key === 'writeOnly') {
      out[key] = mine === true || value === true;
    } else if (key !== 'minimum' && key !== 'maximum' && key !== 'exclusiveMinimum' && key !== 'exclusiveMaximum') {
      out[key] = key === 'type' && mine !== undefined ? mine : value;
    }
  }
  tighter(out, b, 'minimum');
  tighter(out, b, 'maximum');
  // Null passes an allOf only if every part with a type takes it; at least one part must say so.
  const takesNull = (s: Schema) => s.nullable === true || s.type === undefined;
  if (takesNull(a) && takesNull(b) && (a.nullable === true || b.nullable === true)) out.nullable = true;
  else delete out.nullable;
  return out;
}

/** Schemas already flattened, by their node: a spec's nodes are read, never changed, once loaded. */
const flattened = new WeakMap<object, Schema>();

/**
 * The schema at `node` as one plain schema: its `$ref` followed, its
 * `allOf` branches merged into it, and its first `oneOf`/`anyOf` branch
 * merged too (the first branch is the one seeded). Nested composition is
 * flattened the same way, at most 16 levels deep; a schema that resolves to
 * nothing is `{}`, any value.
 */
export const effective = (document: object, node: unknown): Schema =>
  foldSchema<Schema>(document, node, '', { leaf: ({ node: part }) => part, join: merge, firstBranch: true, maxDepth: 16, memo: flattened }) ?? {};

/** The schema's type: its `type` (the first not `null` of a list), else what its keywords imply. */
export function typeOf(schema: Schema): string | undefined {
  const { type } = schema;
  if (typeof type === 'string') return type;
  if (Array.isArray(type)) return type.find((t): t is string => typeof t === 'string' && t !== 'null');
  if (isObject(schema.properties) || schema.additionalProperties !== undefined || schema.required !== undefined) return 'object';
  if (schema.items !== undefined) return 'array';
  if (schema.minimum !== undefined || schema.maximum !== undefined || schema.multipleOf !== undefined) return 'number';
  if (schema.minLength !== undefined || schema.maxLength !== undefined || schema.pattern !== undefined || schema.format !== undefined) return 'string';
  return undefined;
}

/** Numeric bounds as inclusive/exclusive values: OpenAPI 3.0's boolean `exclusive*` and draft 7's numeric form alike. */
export function boundsOf(schema: Schema): { min?: number; max?: number; minExclusive: boolean; maxExclusive: boolean } {
  let min = typeof schema.minimum === 'number' ? schema.minimum : undefined;
  let max = typeof schema.maximum === 'number' ? schema.maximum : undefined;
  let minExclusive = schema.exclusiveMinimum === true;
  let maxExclusive = schema.exclusiveMaximum === true;
  if (typeof schema.exclusiveMinimum === 'number' && (min === undefined || schema.exclusiveMinimum >= min)) {
    min = schema.exclusiveMinimum;
    minExclusive = true;
  }
  if (typeof schema.exclusiveMaximum === 'number' && (max === undefined || schema.exclusiveMaximum <= max)) {
    max = schema.exclusiveMaximum;
    maxExclusive = true;
  }
  return { min, max, minExclusive: minExclusive && min !== undefined, maxExclusive: maxExclusive && max !== undefined };
}
