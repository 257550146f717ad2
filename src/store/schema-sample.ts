/**
 * One value for a schema of an OpenAPI 3.0 document, drawn from a seeded
 * generator: what schema-based seeding makes each item's properties with,
 * and what a create fills read-only fields with (`sampleValue`). Each value
 * keeps the schema's keywords (docs/limits.md lists what is not honoured).
 */
import type { Faker } from '@faker-js/faker';
import { fakerEn } from './faker-en.js';
import type { ItemId } from './items/types.js';
import { boundsOf, effective, typeOf, type Schema } from './schema-node.js';
import { between, chance, fakerSeedOf, pick, seededRandom, type Random } from './schema-random.js';
import { sampleString } from './schema-strings.js';

/** How often an optional property is present, a nullable value null, a documented default used. */
export const PRESENT = 0.7;
const NULL = 0.1;
const DEFAULT = 0.3;
/** Past this depth, optional properties are left out and arrays hold their fewest items, so recursive schemas end. */
const SHALLOW = 5;
const DEEPEST = 12;

/** What a value is drawn from and for. */
export interface SampleContext {
  document: object;
  random: Random;
  faker: Faker | undefined;
  /** Ids seeded so far, by collection noun (`pet`): a `petId` property takes one of them. */
  references: ReadonlyMap<string, readonly ItemId[]>;
  /** The collection's last path segment (`pets`): what `name` means. */
  subject: string | undefined;
}

/** A word as collections and `<x>Id` properties are matched: lower case, letters and digits, singular. */
export function noun(word: string): string {
  const w = word.toLowerCase().replace(/[^a-z0-9]/g, '');
  if (w.endsWith('ies')) return `${w.slice(0, -3)}y`;
  if (/(ss|x|ch|sh)es$/.test(w)) return w.slice(0, -2);
  return w.endsWith('s') && !w.endsWith('ss') ? w.slice(0, -1) : w;
}

/** The seeded id a `<x>Id` property refers to, if a collection named like x was seeded and the id fits. */
function reference(schema: Schema, name: string | undefined, context: SampleContext): ItemId | undefined {
  const match = name ? /^(.+?)(Id|ID|_id)$/.exec(name) : null;
  const ids = match?.[1] ? context.references.get(noun(match[1])) : undefined;
  if (!ids || ids.length === 0) return undefined;
  const id = pick(context.random, ids);
  const type = typeOf(schema);
  if (typeof id === 'number') {
    const { min, max } = boundsOf(schema);
    const fits = (type === 'integer' || type === 'number') && (min === undefined || id >= min) && (max === undefined || id <= max);
    return fits ? id : undefined;
  }
  return type === 'string' ? id : undefined;
}

/** Names of numbers that suggest a range. */
function hintedRange(name: string): [number, number] | undefined {
  if (/^(price|cost|amount|total|balance|fee)$|(Price|Cost|Amount|Total)$/i.test(name)) return [1, 500];
  if (/^(quantity|qty|count|stock)$/i.test(name)) return [1, 10];
  if (/(Id|ID|_id)$/.test(name)) return [1, 20];
  if (/^(lat|latitude)$/i.test(name)) return [-90, 90];
  if (/^(lng|lon|longitude)$/i.test(name)) return [-180, 180];
  return undefined;
}

const FORMAT_RANGE: Record<string, [number, number]> = {
  int32: [-(2 ** 31), 2 ** 31 - 1],
  int64: [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
};

/** The range a number is drawn from: the name's (or 1 to 1000) within the schema's bounds, else next to them. */
function rangeOf(schema: Schema, name: string): [number, number] {
  const { min, max } = boundsOf(schema);
  const [hintLo, hintHi] = hintedRange(name) ?? [1, 1000];
  const span = hintHi - hintLo;
  let lo = Math.max(hintLo, min ?? -Infinity);
  let hi = Math.min(hintHi, max ?? Infinity);
  if (!(lo < hi))
    [lo, hi] =
      min !== undefined && max !== undefined ? [min, max]
      : min !== undefined ? [min, min + span]
      : [hi - span, hi];
  const [formatLo, formatHi] = FORMAT_RANGE[String(schema.format)] ?? [-Infinity, Infinity];
  return [Math.max(lo, formatLo), Math.min(hi, formatHi)];
}

/**
 * A number within the schema's bounds and `multipleOf`: integers exactly, other
 * numbers with two decimals where the bounds allow. Without bounds, a small
 * positive range (or the range the property's name suggests).
 */
function sampleNumber(schema: Schema, integer: boolean, name: string, random: Random): number {
  const { min, max, minExclusive, maxExclusive } = boundsOf(schema);
  const [lo, hi] = rangeOf(schema, name);
  const inside = (v: number) => (min === undefined || (minExclusive ? v > min : v >= min)) && (max === undefined || (maxExclusive ? v < max : v <= max));
  const step =
    typeof schema.multipleOf === 'number' && schema.multipleOf > 0 ? schema.multipleOf
    : integer ? 1
    : undefined;
  if (step !== undefined) {
    let first = Math.ceil(lo / step);
    let last = Math.floor(hi / step);
    if (minExclusive && first * step <= (min ?? -Infinity)) first++;
    if (maxExclusive && last * step >= (max ?? Infinity)) last--;
    // Ajv checks that `value / multipleOf` is an integer: a product rounded off it is drawn again.
    for (let attempt = 0; attempt < 20; attempt++) {
      const value = Number((between(random, first, last) * step).toPrecision(15));
      if (inside(value) && Number.isInteger(value / step) && (!integer || Number.isInteger(value))) return value;
    }
    return Math.min(Math.max(first, 0), last) * step;
  }
  const raw = lo + random() * (hi - lo);
  const rounded = Math.round(raw * 100) / 100;
  return (
    inside(rounded) ? rounded
    : inside(raw) ? raw
    : (lo + hi) / 2
  );
}

function sampleArray(schema: Schema, context: SampleContext, depth: number): unknown[] {
  const min = typeof schema.minItems === 'number' ? schema.minItems : 0;
  const max = typeof schema.maxItems === 'number' ? schema.maxItems : min + 3;
  const length = depth >= SHALLOW ? min : between(context.random, min, Math.min(max, min + 3));
  const out: unknown[] = [];
  const seen = new Set<string>();
  for (let attempt = 0; out.length < length && attempt < length * 5 + 5; attempt++) {
    const value = generate(schema.items ?? {}, undefined, context, depth + 1);
    if (value === undefined) continue;
    const key = JSON.stringify(value);
    if (schema.uniqueItems === true && seen.has(key)) continue;
    seen.add(key);
    out.push(value);
  }
  return out;
}

/** An object with every required property, each optional one with probability PRESENT; `fixed` values put in place. */
export function sampleObject(schema: Schema, context: SampleContext, depth: number, fixed: ReadonlyMap<string, unknown> = new Map()): Record<string, unknown> {
  const properties = (schema.properties ?? {}) as Record<string, unknown>;
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  const out: Record<string, unknown> = {};
  for (const [name, node] of Object.entries(properties)) {
    if (fixed.has(name)) {
      out[name] = fixed.get(name);
      continue;
    }
    const mustHave = required.has(name);
    if (!mustHave && (depth >= SHALLOW || !chance(context.random, PRESENT))) continue;
    if (!mustHave && effective(context.document, node).writeOnly === true) continue;
    const value = generate(node, name, context, depth + 1, mustHave);
    if (value !== undefined) out[name] = value;
  }
  for (const [name, value] of fixed) if (!(name in out)) out[name] = value;
  return out;
}

/**
 * A value for the schema `node`, or undefined when its pattern could not be
 * met and it may be left out. A required one is never undefined: the last
 * attempt is kept.
 */
export function generate(node: unknown, name: string | undefined, context: SampleContext, depth: number, mustHave = true): unknown {
  const schema = effective(context.document, node);
  const { random } = context;
  const referenced = reference(schema, name, context);
  if (referenced !== undefined) return referenced;
  // An enum without null keeps null out even where `nullable` is set (OpenAPI 3.0.3, and Ajv).
  const takesNull = schema.nullable === true && (!Array.isArray(schema.enum) || schema.enum.includes(null));
  if (takesNull && (depth > DEEPEST || chance(random, NULL))) return null;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return structuredClone(pick(random, schema.enum));
  if ('const' in schema) return structuredClone(schema.const);
  if (schema.default !== undefined && chance(random, DEFAULT)) return structuredClone(schema.default);
  switch (typeOf(schema)) {
    case 'object':
      return depth > DEEPEST ? {} : sampleObject(schema, context, depth);
    case 'array':
      return depth > DEEPEST ? [] : sampleArray(schema, context, depth);
    case 'integer':
      return sampleNumber(schema, true, name ?? '', random);
    case 'number':
      return sampleNumber(schema, false, name ?? '', random);
    case 'boolean':
      return chance(random, 0.5);
    default: {
      // Text draws from a generator of its own: where a browser's Faker lacks data, only the text differs.
      const own = seededRandom('text', fakerSeedOf(random));
      const text = sampleString(schema, { random: own, faker: context.faker, name, subject: context.subject });
      return text ?? (mustHave ? String(schema.example ?? schema.default ?? '') : undefined);
    }
  }
}

/**
 * One value for the schema at `schemaPointer` (`/components/schemas/Item`
 * or `#/...`), drawn from `random` (`Math.random` will do): what fills a
 * created item's read-only fields. Faker is reseeded from `random` first.
 */
export function sampleValue(document: object, schemaPointer: string, random: Random, faker: Faker | undefined = fakerEn()): unknown {
  faker?.seed(fakerSeedOf(random));
  const context: SampleContext = { document, random, faker, references: new Map(), subject: undefined };
  const name = /\/properties\/([^/]+)$/.exec(schemaPointer)?.[1]?.replace(/~1/g, '/').replace(/~0/g, '~');
  return generate({ $ref: schemaPointer.startsWith('#') ? schemaPointer : `#${schemaPointer}` }, name, context, 0);
}
