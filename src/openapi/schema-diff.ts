/**
 * The changes between two versions of a schema that a consumer meets, in
 * the direction the data flows: what a client sends (`request`) or what it
 * reads (`response`). The same edit breaks one direction and not the other:
 * a value taken out of an enum breaks the client that sends it, one added
 * breaks the strict client that reads it (docs/spec-diff.md).
 */

type Json = Record<string, unknown>;

/** What a client does with the data: sends it, or reads it. */
export type Direction = 'request' | 'response';

/** One change found in a schema; `field` is the path to it (`[]` an array's items), empty for the schema itself. */
export interface SchemaChange {
  breaking: boolean;
  kind: 'field-removed' | 'field-added' | 'field-required' | 'field-optional' | 'type-changed' | 'enum-narrowed' | 'enum-widened';
  field: string;
  what: string;
}

const decode = (part: string) => part.replace(/~1/g, '/').replace(/~0/g, '~');

/** The node a local `$ref` (`#/...`) points to, or undefined when it points nowhere. */
export function pointAt(document: Json, ref: string): unknown {
  if (!ref.startsWith('#')) return undefined;
  const parts = ref.slice(1).split('/').slice(1).map(decode);
  return parts.reduce<unknown>((node, key) => (node && typeof node === 'object' ? (node as Json)[key] : undefined), document);
}

/** A schema with its `$ref`s followed and its `allOf` folded into one: properties merged, `required` joined. */
export function flatten(document: Json, schema: unknown, depth = 0): Json {
  let node = schema as Json | undefined;
  for (let hops = 0; node && typeof node.$ref === 'string' && hops < 32; hops++) node = pointAt(document, node.$ref) as Json | undefined;
  if (!node || typeof node !== 'object' || depth > 32) return {};
  if (!Array.isArray(node.allOf)) return node;
  const { allOf, ...own } = node;
  const parts = [...(allOf as unknown[]).map((part) => flatten(document, part, depth + 1)), own];
  const properties: Json = {};
  const required = new Set<string>();
  const merged: Json = {};
  for (const part of parts) {
    for (const [name, value] of Object.entries((part.properties ?? {}) as Json)) {
      const before = properties[name] === undefined ? {} : flatten(document, properties[name], depth + 1);
      properties[name] = { ...before, ...flatten(document, value, depth + 1) };
    }
    for (const name of (part.required ?? []) as string[]) required.add(name);
    Object.assign(merged, part);
  }
  return { ...merged, properties, required: [...required] };
}

const list = (values: readonly unknown[]) => values.map((v) => `\`${JSON.stringify(v)}\``).join(', ');
const field = (at: string, name: string) => (at === '' ? name : `${at}.${name}`);

/** Whether a type may stand for another in this direction: a request may accept more (integer to number), a response send less. */
function typeCompatible(before: unknown, after: unknown, direction: Direction): boolean {
  if (before === after || before === undefined || after === undefined) return true;
  return direction === 'request' ? before === 'integer' && after === 'number' : before === 'number' && after === 'integer';
}

/** The enum's changes: values gone break a request, values new break a response; an enum set or dropped likewise. */
function enumChanges(before: Json, after: Json, direction: Direction, at: string): SchemaChange[] {
  const old = Array.isArray(before.enum) ? (before.enum as unknown[]) : undefined;
  const now = Array.isArray(after.enum) ? (after.enum as unknown[]) : undefined;
  if (old === undefined && now === undefined) return [];
  const has = (values: unknown[], v: unknown) => values.some((w) => JSON.stringify(w) === JSON.stringify(v));
  const removed = old === undefined ? undefined : old.filter((v) => now !== undefined && !has(now, v));
  const added = now === undefined ? undefined : now.filter((v) => old !== undefined && !has(old, v));
  const changes: SchemaChange[] = [];
  if (old === undefined || (removed && removed.length > 0)) {
    const what = old === undefined ? `values limited to ${list(now ?? [])}` : `enum values removed: ${list(removed ?? [])}`;
    changes.push({ breaking: direction === 'request', kind: 'enum-narrowed', field: at, what });
  }
  if (now === undefined || (added && added.length > 0)) {
    const what = now === undefined ? `any value now, not only ${list(old ?? [])}` : `enum values added: ${list(added ?? [])}`;
    changes.push({ breaking: direction === 'response', kind: 'enum-widened', field: at, what });
  }
  return changes;
}

/** What a comparison carries down: the two documents, the direction, and the pairs of `$ref`s already compared. */
interface Walk {
  doc: { before: Json; after: Json };
  direction: Direction;
  seen: Set<string>;
}

/** The changes of the properties two object schemas share, add or drop. */
function propertyChanges(walk: Walk, before: Json, after: Json, at: string, depth: number): SchemaChange[] {
  const { direction } = walk;
  const oldProps = (before.properties ?? {}) as Json;
  const newProps = (after.properties ?? {}) as Json;
  const oldRequired = new Set((before.required ?? []) as string[]);
  const newRequired = new Set((after.required ?? []) as string[]);
  const changes: SchemaChange[] = [];
  for (const name of Object.keys(oldProps)) {
    const where = field(at, name);
    if (!(name in newProps)) {
      // A client that reads it finds nothing; a client that sends it is refused only where no other property is allowed.
      const breaking = direction === 'response' || after.additionalProperties === false;
      changes.push({ breaking, kind: 'field-removed', field: where, what: `field \`${name}\` removed` });
      continue;
    }
    if (oldRequired.has(name) && !newRequired.has(name))
      changes.push({ breaking: direction === 'response', kind: 'field-optional', field: where, what: `field \`${name}\` no longer required` });
    if (!oldRequired.has(name) && newRequired.has(name))
      changes.push({ breaking: direction === 'request', kind: 'field-required', field: where, what: `field \`${name}\` now required` });
    changes.push(...compare(walk, oldProps[name], newProps[name], where, depth + 1));
  }
  for (const name of Object.keys(newProps)) {
    if (name in oldProps) continue;
    const required = newRequired.has(name);
    const breaking = direction === 'request' && required;
    const what = `${required ? 'required' : 'optional'} field \`${name}\` added`;
    changes.push({ breaking, kind: required && direction === 'request' ? 'field-required' : 'field-added', field: field(at, name), what });
  }
  return changes;
}

/** The `$ref`s of two schemas compared, as one key; undefined when neither is one. */
function refPair(before: unknown, after: unknown): string | undefined {
  const ref = (schema: unknown) => (schema && typeof schema === 'object' ? (schema as Json).$ref : undefined);
  const [b, a] = [ref(before), ref(after)];
  return typeof b === 'string' || typeof a === 'string' ? `${String(b)} ${String(a)}` : undefined;
}

function compare(walk: Walk, rawBefore: unknown, rawAfter: unknown, at: string, depth: number): SchemaChange[] {
  const { doc, direction } = walk;
  // A pair of $refs is compared once: a recursive schema (a tree of nodes) ends, and a schema met twice is reported once.
  const pair = refPair(rawBefore, rawAfter);
  if (depth > 32 || (pair !== undefined && walk.seen.has(pair))) return [];
  if (pair !== undefined) walk.seen.add(pair);
  const before = flatten(doc.before, rawBefore);
  const after = flatten(doc.after, rawAfter);
  if (!typeCompatible(before.type, after.type, direction)) {
    const what = `type changed from ${String(before.type)} to ${String(after.type)}`;
    return [{ breaking: true, kind: 'type-changed', field: at, what }];
  }
  const changes = enumChanges(before, after, direction, at);
  changes.push(...propertyChanges(walk, before, after, at, depth));
  if (before.items !== undefined && after.items !== undefined)
    changes.push(...compare(walk, before.items, after.items, at === '' ? '[]' : `${at}[]`, depth + 1));
  return changes;
}

/**
 * The changes from `before` to `after` (schemas of the two documents, `$ref`s
 * and `allOf` followed) that a client sending (`request`) or reading
 * (`response`) the data meets; each names the field it is in.
 */
export function schemaChanges(doc: { before: Json; after: Json }, before: unknown, after: unknown, direction: Direction): SchemaChange[] {
  return compare({ doc, direction, seen: new Set() }, before, after, '', 0);
}
