/**
 * The items of the APIs served by convention (`--spec`) in a workspace's
 * export, and an export's `apis` checked before a load, a restore or a copy
 * writes it: `{"nextId","pets","apis":{base:{collection:{"nextId","items"}}}}`.
 */
import { ApiError } from '../kernel/errors.js';
import { echo } from '../kernel/echo.js';
import { formatIssues } from '../kernel/issues.js';
import { stringifyJson } from '../kernel/json.js';
import { MAX_ITEMS_PER_COLLECTION } from '../store/items/quota.js';
import type { SchemaCheck } from '../openapi/validate.js';
import type { CollectionKey, Item, ItemId, ItemStore, SeededItems } from '../store/items/types.js';

/** A collection of an API served by convention, with the check of its item schema. */
export interface ServedCollection extends CollectionKey {
  check: SchemaCheck;
}

/** An API served by convention: its base path, its collections (in the spec's order), and what a workspace's first use seeds. */
export interface ServedItemsApi {
  base: string;
  collections: readonly ServedCollection[];
  seed: () => SeededItems;
}

/** Every API served by convention, in the order served, and the store of their items. */
export interface ServedItems {
  apis: readonly ServedItemsApi[];
  store: ItemStore;
}

/** One collection as a load gives it, checked: items valid against their schema, ids unique. */
export interface GivenCollection {
  key: ServedCollection;
  nextId?: number;
  items: Item[];
}

/** The `apis` of a load, checked: the collections given of each API named. */
export type ItemsPlan = { api: ServedItemsApi; collections: GivenCollection[] }[];

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const refuse = (message: string) => ApiError.of('invalid_request', `Nothing was loaded. ${message}`);
const listOf = (names: readonly string[]) => (names.length ? names.join(', ') : 'none');

/** `"apis"`'s text: every API served by convention, each collection whole, read at one moment per API. */
export async function itemsText(served: ServedItems, key: string): Promise<string> {
  const apis: string[] = [];
  for (const api of served.apis) {
    const contents = await (await served.store.space(api.base, key, api.seed)).contents(api.collections);
    const collections = api.collections.map((c) => {
      const { nextId, items } = contents.get(c.name) ?? { items: [] };
      const head = nextId === undefined ? '' : `"nextId":${nextId},`;
      return `${JSON.stringify(c.name)}:{${head}"items":[${items.map((item) => stringifyJson(item)).join(',')}]}`;
    });
    apis.push(`${JSON.stringify(api.base)}:{${collections.join(',')}}`);
  }
  return `"apis":{${apis.join(',')}}`;
}

/** An export's pieces (`{"nextId","pets":[...]}`) with `"apis"` after the pets: its last `}` held back, and written after them. */
export async function* withItems(pieces: Iterable<string> | AsyncIterable<string>, apis: string): AsyncGenerator<string> {
  let held: string | undefined;
  for await (const piece of pieces) {
    if (held !== undefined && held !== '') yield held;
    held = piece;
  }
  yield `${(held ?? '').slice(0, -1)},${apis}}`;
}

/** The export's pieces of a key's workspace: with `"apis"` when APIs are served by convention, else as they are (byte for byte as before). */
export async function exportOf(
  served: ServedItems | undefined,
  key: string,
  pieces: Iterable<string> | AsyncIterable<string>,
): Promise<Iterable<string> | AsyncIterable<string>> {
  return served && served.apis.length > 0 ? withItems(pieces, await itemsText(served, key)) : pieces;
}

/** One collection of a load checked: its shape, every item against the item schema, an id each, ids unique, within the collection's cap. */
function checkCollection(where: string, key: ServedCollection, value: unknown): GivenCollection {
  if (!isObject(value) || !Array.isArray(value.items)) throw refuse(`${where} must be an object with "items" (an array).`);
  const { nextId, items } = value as { nextId?: unknown; items: unknown[] };
  if (nextId !== undefined && (!Number.isSafeInteger(nextId) || (nextId as number) < 1)) throw refuse(`${where} "nextId" must be a positive integer.`);
  if (items.length > MAX_ITEMS_PER_COLLECTION)
    throw ApiError.of('quota_exceeded', `Nothing was loaded. ${where} has ${items.length} items; a collection holds at most ${MAX_ITEMS_PER_COLLECTION}.`);
  const firstAt = new Map<ItemId, number>();
  for (const [i, item] of items.entries()) {
    const issues = key.check(item).map((issue) => ({ ...issue, in: String(i) }));
    if (issues.length > 0) throw refuse(`${where}: ${formatIssues(issues)}`);
    const id = (item as Item)[key.idField];
    const valid = key.idKind === 'integer' ? Number.isSafeInteger(id) && (id as number) >= 1 : typeof id === 'string' && id !== '';
    if (!valid) throw refuse(`${where}: record ${i} needs ${echo(key.idField)}, ${key.idKind === 'integer' ? 'a positive integer' : 'a string'}.`);
    const seen = firstAt.get(id as ItemId);
    if (seen !== undefined) throw refuse(`${where}: record ${i} has id ${JSON.stringify(id)}, already used by record ${seen}.`);
    firstAt.set(id as ItemId, i);
  }
  return { key, items: items as Item[], ...(key.idKind === 'integer' && nextId !== undefined ? { nextId: nextId as number } : {}) };
}

/** A load's `apis` checked whole, before anything is written: an API or collection not served is a 400 naming it. */
export function checkItems(served: ServedItems | undefined, value: unknown): ItemsPlan {
  const apis = served?.apis ?? [];
  if (!isObject(value)) throw refuse('"apis" must be an object: the items of each API served by convention, by its base path.');
  return Object.entries(value).map(([base, collections]) => {
    const api = apis.find((a) => a.base === base);
    if (!api) throw refuse(`No API is served by convention at ${echo(base)}; served so: ${listOf(apis.map((a) => a.base))}.`);
    if (!isObject(collections)) throw refuse(`"apis" ${echo(base)} must be an object of collections, by their path.`);
    return {
      api,
      collections: Object.entries(collections).map(([name, given]) => {
        const key = api.collections.find((c) => c.name === name);
        if (!key) throw refuse(`The API at ${echo(base)} has no collection ${echo(name)}; its collections: ${listOf(api.collections.map((c) => c.name))}.`);
        return checkCollection(`${base} ${name}`, key, given);
      }),
    };
  });
}
