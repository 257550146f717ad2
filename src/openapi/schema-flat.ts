/**
 * A schema of an OpenAPI 3.0 document read the simple way, for values the
 * sandbox makes up itself where any valid one will do (an error body in a
 * spec's own shape): `$ref`s followed, `allOf` flattened into the list of
 * schemas a value must meet, `oneOf`/`anyOf` by their first branch; a simple
 * check of a value against such a list, and the minimal value it takes. The
 * validators (`validate.ts`) remain the judge of the result.
 */
import { foldSchema } from './schema-ref.js';

type Json = Record<string, unknown>;

/** Deeper than any error schema needs: a recursive schema stops here. */
const MAX_DEPTH = 8;

const isObject = (value: unknown): value is Json => value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * The schemas a value at `node` must meet, none with a `$ref` or an `allOf`
 * left (their other keywords kept). `oneOf` and `anyOf` take their first branch.
 */
export function flattenSchema(document: Json, node: unknown, pointer = '', depth = 0): Json[] {
  const fold = { leaf: ({ node: part }: { node: Json }) => [part], join: (a: Json[], b: Json[]) => [...a, ...b], firstBranch: true, maxDepth: MAX_DEPTH };
  return foldSchema<Json[]>(document, node, pointer, fold, depth) ?? [];
}

/** An object schema's properties (each its flattened schemas, in order of first mention) and required names. */
export interface ObjectShape {
  properties: Map<string, Json[]>;
  required: Set<string>;
}

/** The object that `parts` describe, or undefined when they describe no object. */
export function objectShape(document: Json, parts: readonly Json[], depth = 0): ObjectShape | undefined {
  const objectLike = parts.some((p) => p.type === 'object' || isObject(p.properties));
  if (!objectLike || parts.some((p) => p.type !== undefined && p.type !== 'object')) return undefined;
  const properties = new Map<string, Json[]>();
  const required = new Set<string>();
  for (const part of parts) {
    for (const [name, schema] of Object.entries(isObject(part.properties) ? part.properties : {}))
      properties.set(name, [...(properties.get(name) ?? []), ...flattenSchema(document, schema, '', depth + 1)]);
    for (const name of Array.isArray(part.required) ? part.required : []) if (typeof name === 'string') required.add(name);
  }
  return { properties, required };
}

/** The one type `parts` name, if any. */
export const typeOf = (parts: readonly Json[]): string | undefined => parts.find((p) => typeof p.type === 'string')?.type as string | undefined;

const TYPE_CHECKS: Record<string, (value: unknown) => boolean> = {
  string: (v) => typeof v === 'string',
  integer: (v) => Number.isInteger(v),
  number: (v) => typeof v === 'number' && Number.isFinite(v),
  boolean: (v) => typeof v === 'boolean',
  object: isObject,
  array: Array.isArray,
};

/** Formats every value of its type meets as far as a made-up value goes (the validators have the last word). */
const NUMBER_FORMATS = new Set(['int32', 'int64', 'float', 'double']);

function textFits(value: string, part: Json): boolean {
  const length = [...value].length;
  if (typeof part.minLength === 'number' && length < part.minLength) return false;
  if (typeof part.maxLength === 'number' && length > part.maxLength) return false;
  if (typeof part.pattern === 'string') {
    try {
      if (!new RegExp(part.pattern, 'u').test(value)) return false;
    } catch {
      return false;
    }
  }
  // A text with a format (a URI, a date) is not made from an error's words.
  return part.format === undefined;
}

function numberFits(value: number, part: Json): boolean {
  const { minimum, maximum, exclusiveMinimum, exclusiveMaximum, multipleOf, format } = part;
  if (typeof minimum === 'number' && (exclusiveMinimum === true ? value <= minimum : value < minimum)) return false;
  if (typeof maximum === 'number' && (exclusiveMaximum === true ? value >= maximum : value > maximum)) return false;
  if (typeof exclusiveMinimum === 'number' && value <= exclusiveMinimum) return false;
  if (typeof exclusiveMaximum === 'number' && value >= exclusiveMaximum) return false;
  if (typeof multipleOf === 'number' && multipleOf > 0 && !Number.isInteger(value / multipleOf)) return false;
  return format === undefined || (typeof format === 'string' && NUMBER_FORMATS.has(format));
}

/** Whether a text or number plainly meets every one of `parts`: type, enum, lengths, pattern, bounds, no format it cannot judge. */
export function simplyFits(value: string | number, parts: readonly Json[]): boolean {
  return parts.every((part) => {
    if (typeof part.type === 'string' && !TYPE_CHECKS[part.type]?.(value)) return false;
    if (Array.isArray(part.enum) && !part.enum.includes(value)) return false;
    return typeof value === 'string' ? textFits(value, part) : numberFits(value, part);
  });
}

/** Texts of string formats a made-up value takes. */
const FORMAT_SAMPLES: Record<string, string> = {
  'date-time': '1970-01-01T00:00:00Z',
  date: '1970-01-01',
  time: '00:00:00Z',
  uuid: '00000000-0000-4000-8000-000000000000',
  email: 'user@example.com',
  uri: 'about:blank',
  'uri-reference': 'about:blank',
  url: 'about:blank',
  hostname: 'example.com',
  ipv4: '127.0.0.1',
  ipv6: '::1',
};

/** The first value of `key` among `parts` (in order), if any part has one. */
function firstOf(parts: readonly Json[], key: 'enum' | 'default' | 'example'): { found: boolean; value?: unknown } {
  for (const part of parts) {
    if (key === 'enum' && Array.isArray(part.enum) && part.enum.length > 0) return { found: true, value: part.enum[0] };
    if (key !== 'enum' && key in part) return { found: true, value: part[key] };
  }
  return { found: false };
}

/** A number of `type` within the bounds of `parts`: the lowest allowed, else 0, else the highest. */
function minimalNumber(parts: readonly Json[], integer: boolean): number {
  let low = -Infinity;
  let high = Infinity;
  for (const { minimum, maximum, exclusiveMinimum, exclusiveMaximum } of parts) {
    if (typeof minimum === 'number') low = Math.max(low, exclusiveMinimum === true ? minimum + (integer ? 1 : 1e-6) : minimum);
    if (typeof exclusiveMinimum === 'number') low = Math.max(low, exclusiveMinimum + (integer ? 1 : 1e-6));
    if (typeof maximum === 'number') high = Math.min(high, exclusiveMaximum === true ? maximum - (integer ? 1 : 1e-6) : maximum);
    if (typeof exclusiveMaximum === 'number') high = Math.min(high, exclusiveMaximum - (integer ? 1 : 1e-6));
  }
  const value = low > 0 ? low : Math.min(0, high);
  return integer ? Math.ceil(value) : value;
}

/** The minimal value of `parts` by its type, respecting formats, lengths, bounds and required properties. */
function minimalValue(document: Json, parts: readonly Json[], depth: number): unknown {
  const type = typeOf(parts);
  const format = parts.find((p) => typeof p.format === 'string')?.format as string | undefined;
  const most = (key: string) => Math.max(0, ...parts.map((p) => (typeof p[key] === 'number' ? (p[key] as number) : 0)));
  switch (type) {
    case 'string':
      return (format && FORMAT_SAMPLES[format]) ?? 'x'.repeat(most('minLength'));
    case 'integer':
    case 'number':
      return minimalNumber(parts, type === 'integer');
    case 'boolean':
      return false;
    case 'array': {
      const items = parts.find((p) => p.items !== undefined)?.items;
      const item = sampleValue(document, flattenSchema(document, items, '', depth + 1), depth + 1);
      return Array.from({ length: most('minItems') }, () => item);
    }
    default: {
      const shape = objectShape(document, parts, depth);
      if (shape) return sampleObject(document, shape, depth);
      return parts.some((p) => p.nullable === true) ? null : {};
    }
  }
}

/** The simple value a schema takes: its first `enum` value, its `default`, its `example`, else the minimal one. */
export function sampleValue(document: Json, parts: readonly Json[], depth = 0): unknown {
  if (depth > MAX_DEPTH) return null;
  for (const key of ['enum', 'default', 'example'] as const) {
    const { found, value } = firstOf(parts, key);
    if (found) return value;
  }
  return minimalValue(document, parts, depth);
}

/** An object with each required property sampled. */
function sampleObject(document: Json, shape: ObjectShape, depth: number): Json {
  const out: Json = {};
  for (const name of shape.required) out[name] = sampleValue(document, shape.properties.get(name) ?? [], depth + 1);
  return out;
}
