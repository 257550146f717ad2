/**
 * How the conventional mode makes an item of what a client sent: the
 * fields the server owns (`readOnly`) taken out of the body and made or
 * kept by the sandbox, documented `default`s filled in, and a JSON Merge
 * Patch (RFC 7396) applied. Pure functions of the item schema's shape.
 */
import { shapeAt } from '../../openapi/schema-shape.js';
import type { Spec } from '../../openapi/spec.js';
import type { Item } from '../../store/items/types.js';

type Json = Record<string, unknown>;

/** What the item schema says of each top-level property, read once per collection. */
export interface ItemRules {
  /** Properties the server owns: a client's value is dropped. */
  readOnly: readonly string[];
  /** Documented defaults of properties a client may send, filled in when absent. */
  defaults: readonly (readonly [string, unknown])[];
  /** Server-owned properties the sandbox makes: required ones, or those of a format it can make. */
  made: readonly (readonly [string, Json])[];
}

/** A property set as an own data property, even one named `__proto__`. */
export function setOwn(target: Json, name: string, value: unknown): void {
  Object.defineProperty(target, name, { value, enumerable: true, writable: true, configurable: true });
}

const MADE_FORMATS = new Set(['date-time', 'date', 'uuid']);

/** The rules of the item schema at `pointer`; the id field is the store's, not a rule's. */
export function itemRules(spec: Spec, pointer: string, idField: string): ItemRules {
  const shape = shapeAt(spec.document, pointer);
  const properties = Object.entries(shape?.properties ?? {}).filter(([name]) => name !== idField);
  const required = new Set(shape?.required ?? []);
  return {
    readOnly: [idField, ...properties.filter(([, schema]) => schema.readOnly === true).map(([name]) => name)],
    defaults: properties.filter(([, schema]) => schema.readOnly !== true && schema.default !== undefined).map(([name, schema]) => [name, schema.default]),
    made: properties.filter(
      ([name, schema]) => schema.readOnly === true && (required.has(name) || (typeof schema.format === 'string' && MADE_FORMATS.has(schema.format))),
    ),
  };
}

/** A value for a server-owned property: now for a date, a new UUID, else the schema's default, example or a value of its type. */
function madeValue(schema: Json, now: () => Date, newId: () => string): unknown {
  if (schema.format === 'date-time') return now().toISOString();
  if (schema.format === 'date') return now().toISOString().slice(0, 10);
  if (schema.format === 'uuid') return newId();
  if (schema.default !== undefined) return structuredClone(schema.default);
  if (schema.example !== undefined) return structuredClone(schema.example);
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  const byType: Record<string, unknown> = {
    string: '',
    integer: typeof schema.minimum === 'number' ? schema.minimum : 0,
    boolean: false,
    array: [],
    object: {},
  };
  byType.number = byType.integer;
  return byType[String(schema.type)] ?? null;
}

export interface Making {
  rules: ItemRules;
  idField: string;
  id: unknown;
  now: () => Date;
  newId: () => string;
}

/**
 * The item a create or a replace stores: the id first, the client's fields
 * without the server-owned ones, absent defaults filled, server-owned
 * fields kept from `current` (a replace) or made.
 */
export function makeItem(body: Json, making: Making, current?: Item): Item {
  const { rules, idField, now, newId } = making;
  const item: Json = {};
  setOwn(item, idField, making.id);
  const owned = new Set(rules.readOnly);
  for (const [name, value] of Object.entries(body)) if (!owned.has(name)) setOwn(item, name, value);
  for (const [name, value] of rules.defaults) if (!Object.hasOwn(item, name)) setOwn(item, name, structuredClone(value));
  for (const name of rules.readOnly) {
    if (name !== idField && current && Object.hasOwn(current, name)) setOwn(item, name, current[name]);
  }
  for (const [name, schema] of rules.made) if (!Object.hasOwn(item, name)) setOwn(item, name, madeValue(schema, now, newId));
  return item;
}

const isObject = (value: unknown): value is Json => value !== null && typeof value === 'object' && !Array.isArray(value);

/** RFC 7396 JSON Merge Patch: `null` removes a member, an object merges into an object, anything else replaces. */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isObject(patch)) return patch;
  const out: Json = {};
  if (isObject(target)) for (const [name, value] of Object.entries(target)) setOwn(out, name, value);
  for (const [name, value] of Object.entries(patch)) {
    if (value === null) delete out[name];
    else setOwn(out, name, mergePatch(Object.hasOwn(out, name) ? out[name] : undefined, value));
  }
  return out;
}

/** A patch without the server-owned fields (ignored, as a create and a replace ignore them). */
export function withoutOwned(patch: Json, rules: ItemRules): Json {
  const owned = new Set(rules.readOnly);
  const out: Json = {};
  for (const [name, value] of Object.entries(patch)) if (!owned.has(name)) setOwn(out, name, value);
  return out;
}

/** One item of a collection in a message: `/store/orders` -> `order`, `/categories` -> `category`. */
export function singular(collection: string): string {
  const last = collection.slice(collection.lastIndexOf('/') + 1);
  if (/ies$/.test(last)) return `${last.slice(0, -3)}y`;
  if (/(ss|x|ch|sh)es$/.test(last)) return last.slice(0, -2);
  return /[^su]s$/.test(last) ? last.slice(0, -1) : last;
}
