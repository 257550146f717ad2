/**
 * What a spec's paths mean by REST conventions: collections of items and
 * the role of each operation in them, so that any spec can be served
 * statefully with no code per operation (`modes/conventional/`). An
 * operation that fits no convention is named with the reason, for a 501 or
 * the docs. The rules are written down in docs/modes.md.
 */
import { located } from './schema-ref.js';
import { isObjectShape, shapeAt, type Shape } from './schema-shape.js';
import type { OperationSpec, Spec } from './spec.js';

/**
 * A collection of items. Its first three fields are the store's
 * `CollectionKey` (store/items/types.ts), which this layer cannot import.
 */
export interface Collection {
  /** The collection's path template, e.g. `/store/orders`: its name in the store. */
  name: string;
  /** The item property holding the id: `id`. */
  idField: string;
  idKind: 'integer' | 'uuid' | 'string';
  /** The item path, e.g. `/store/orders/{orderId}`; absent when the spec has none. */
  itemPath?: string;
  /** The item path's parameter, e.g. `orderId`. */
  idParam?: string;
  /** JSON pointer of the item schema (the item GET's success body, else the list's array items, else the POST body). */
  itemSchema: string;
  /** JSON pointer of POST's request body schema. */
  createSchema?: string;
}

export type Role = 'list' | 'create' | 'read' | 'replace' | 'patch' | 'delete';

export interface Inferred {
  role: Role;
  collection: Collection;
  /** The documented success (2xx) status to answer: the lowest one documented. */
  status: number;
  /** list: query parameters that name item properties (equality filters). */
  filters: string[];
  /** list: the `limit` query parameter. */
  limit?: { name: string; default?: number; maximum?: number };
}

export interface ApiModel {
  collections: Collection[];
  /** By operationId. */
  operations: Map<string, Inferred>;
  /** operationId -> why no convention fits it. */
  unmatched: Map<string, string>;
}

const ID = 'id';
const ITEM_ROLES: Partial<Record<OperationSpec['method'], Role>> = { get: 'read', put: 'replace', patch: 'patch', delete: 'delete' };
const COLLECTION_ROLES: Partial<Record<OperationSpec['method'], Role>> = { get: 'list', post: 'create' };

const successStatus = (op: OperationSpec) => [...op.responses.keys()].filter((status) => status >= 200 && status < 300).sort((a, b) => a - b)[0];

/** The item schema's pointer of a list: its success body is an array of objects. */
function arrayItems(spec: Spec, op: OperationSpec | undefined): string | undefined {
  const status = op && successStatus(op);
  const pointer = status === undefined ? undefined : op?.responses.get(status)?.schemaPointer;
  const items = pointer === undefined ? undefined : shapeAt(spec.document, pointer)?.items;
  return items && isObjectShape(shapeAt(spec.document, items.pointer)) ? items.pointer : undefined;
}

/** The schema's pointer (its `$ref` followed) if it describes a JSON object. */
function objectSchema(spec: Spec, pointer: string | undefined): string | undefined {
  const found = pointer === undefined ? undefined : located(spec.document, pointer);
  return found && isObjectShape(shapeAt(spec.document, found.pointer)) ? found.pointer : undefined;
}

function idKindOf(shape: Shape | undefined): Collection['idKind'] | undefined {
  const id = shape?.properties[ID];
  if (id?.type === 'integer') return 'integer';
  if (id?.type === 'string') return id.format === 'uuid' ? 'uuid' : 'string';
  return undefined;
}

/** The list's `limit` query parameter, with its default and maximum. */
function limitOf(spec: Spec, op: OperationSpec): Inferred['limit'] {
  const param = op.parameters.find((p) => p.in === 'query' && p.name === 'limit');
  if (!param) return undefined;
  const schema = located(spec.document, param.schemaPointer)?.node ?? {};
  return {
    name: param.name,
    ...(typeof schema.default === 'number' ? { default: schema.default } : {}),
    ...(typeof schema.maximum === 'number' ? { maximum: schema.maximum } : {}),
  };
}

/** A path's operations by method. */
function byPath(spec: Spec): Map<string, Map<OperationSpec['method'], OperationSpec>> {
  const paths = new Map<string, Map<OperationSpec['method'], OperationSpec>>();
  for (const op of spec.operations.values()) {
    let methods = paths.get(op.path);
    if (!methods) paths.set(op.path, (methods = new Map()));
    methods.set(op.method, op);
  }
  return paths;
}

const ITEM_PATH = /^(\/[^{}]*[^/{}])\/\{([^{}/]+)\}$/;

/** Why a path that is no collection's fits no convention. */
function pathReason(path: string): string {
  const item = ITEM_PATH.exec(path);
  if (item) return `no collection at ${item[1] ?? ''} (a GET answering an array of objects, or a POST taking an object) owns ${path}`;
  if (path.includes('{')) return `${path} lies below an item or has parameters inside it: nested resources fit no convention`;
  return `${path} is no collection: its GET answers no array of objects and no POST takes a JSON object`;
}

/**
 * The collections of a spec and the role of each operation: `/X` with a
 * POST taking a JSON object and/or a GET answering an array of objects is
 * a collection; `/X/{param}` its item path. Items are kept by their `id`
 * property, so a collection whose item schema has none is no collection.
 */
export function inferApi(spec: Spec): ApiModel {
  const model: ApiModel = { collections: [], operations: new Map(), unmatched: new Map() };
  const paths = byPath(spec);
  const claimed = new Set<string>();
  for (const [path, methods] of paths) {
    if (path.includes('{')) continue;
    const listItems = arrayItems(spec, methods.get('get'));
    const post = methods.get('post');
    const createSchema = objectSchema(spec, post?.requestBody?.pointer);
    if (!listItems && !createSchema) continue;
    const itemPath = [...paths.keys()].find((other) => ITEM_PATH.exec(other)?.[1] === path);
    const itemOps = itemPath === undefined ? undefined : paths.get(itemPath);
    const read = itemOps?.get('get');
    const readStatus = read && successStatus(read);
    const readSchema = objectSchema(spec, readStatus === undefined ? undefined : read?.responses.get(readStatus)?.schemaPointer);
    const itemSchema = (readSchema ?? listItems ?? createSchema) as string;
    const idKind = idKindOf(shapeAt(spec.document, itemSchema));
    claimed.add(path);
    if (itemPath !== undefined) claimed.add(itemPath);
    const all = [...methods.values(), ...(itemOps?.values() ?? [])];
    if (!idKind) {
      for (const op of all) model.unmatched.set(op.operationId, `the items of ${path} have no \`id\` property (integer or string) to keep them by`);
      continue;
    }
    const collection: Collection = {
      name: path,
      idField: ID,
      idKind,
      ...(itemPath === undefined ? {} : { itemPath, idParam: ITEM_PATH.exec(itemPath)?.[2] as string }),
      itemSchema,
      ...(createSchema ? { createSchema } : {}),
    };
    model.collections.push(collection);
    for (const op of all) {
      const role = (op.path === path ? COLLECTION_ROLES : ITEM_ROLES)[op.method];
      const reason = whyNot(spec, op, role, listItems, createSchema);
      if (reason !== undefined || !role) {
        model.unmatched.set(op.operationId, reason ?? `${op.method.toUpperCase()} ${op.path} has no role by convention`);
        continue;
      }
      model.operations.set(op.operationId, inferred(spec, op, role, collection));
    }
  }
  for (const [path, methods] of paths) {
    if (claimed.has(path)) continue;
    for (const op of methods.values()) model.unmatched.set(op.operationId, pathReason(path));
  }
  return model;
}

function whyNot(spec: Spec, op: OperationSpec, role: Role | undefined, listItems?: string, createSchema?: string): string | undefined {
  const what = `${op.method.toUpperCase()} ${op.path}`;
  if (!role) return `${what}: by convention a collection path takes GET and POST, an item path GET, PUT, PATCH and DELETE`;
  if (successStatus(op) === undefined) return `${what} documents no success (2xx) answer`;
  if (role === 'list' && !listItems) return `${what} answers no array of objects`;
  if (role === 'create' && !createSchema) return `${what} takes no JSON object`;
  if ((role === 'replace' || role === 'patch') && !objectSchema(spec, op.requestBody?.pointer)) return `${what} takes no JSON object`;
  return undefined;
}

function inferred(spec: Spec, op: OperationSpec, role: Role, collection: Collection): Inferred {
  const properties = shapeAt(spec.document, collection.itemSchema)?.properties ?? {};
  const limit = role === 'list' ? limitOf(spec, op) : undefined;
  const filters =
    role === 'list' ? op.parameters.filter((p) => p.in === 'query' && p.name !== limit?.name && Object.hasOwn(properties, p.name)).map((p) => p.name) : [];
  return {
    role,
    collection,
    status: successStatus(op) as number,
    filters,
    ...(limit ? { limit } : {}),
  };
}
