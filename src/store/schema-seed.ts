/**
 * Seeded items of an API served from its spec by convention (`--spec`):
 * `count` items per collection, made from each collection's item schema,
 * the same for the same document, seed and count. Each item's values come
 * from a generator keyed by the seed, its collection and its index, and its
 * texts from Faker seeded once per collection: an item changes neither with
 * the items after it nor with other collections, but for its references.
 */
import type { Faker } from '@faker-js/faker';
import { fakerEn } from './faker-en.js';
import type { IdKind, Item, ItemId } from './items/types.js';
import { nodeAt } from '../openapi/schema-ref.js';
import { effective } from './schema-node.js';
import { fakerSeedOf, seededRandom, uuidV4, type Random } from './schema-random.js';
import { generate, noun, sampleObject, type SampleContext } from './schema-sample.js';

export { sampleValue } from './schema-sample.js';

/** A collection to seed: its name (the collection's path), its id property and kind, its item schema's JSON pointer. */
export interface SeedCollection {
  name: string;
  idField: string;
  idKind: IdKind;
  schemaPointer: string;
}

export interface SeedOptions {
  seed: number;
  count: number;
  /** Faker to draw realistic strings with: the English build by default; a browser's has less, and seeds plainer text. */
  faker?: Faker;
  /** Ids of items kept elsewhere, by the noun `<x>Id` properties name them (`pet`: the workspace's pets), referred to as seeded ones are. */
  references?: ReadonlyMap<string, readonly ItemId[]>;
}

/** The collection's noun as `<x>Id` properties name it: its path's last segment, singular (`/store/orders` → `order`). */
const nounOf = (collection: SeedCollection) => noun(collection.name.split('/').filter(Boolean).pop() ?? '');

/** The nouns of the `<x>Id` properties anywhere in a schema, a few levels deep. */
function referencedNouns(document: object, node: unknown, depth = 0, found = new Set<string>()): Set<string> {
  if (depth > 4) return found;
  const schema = effective(document, node);
  for (const [name, child] of Object.entries((schema.properties ?? {}) as Record<string, unknown>)) {
    const match = /^(.+?)(Id|ID|_id)$/.exec(name);
    if (match?.[1]) found.add(noun(match[1]));
    referencedNouns(document, child, depth + 1, found);
  }
  if (schema.items !== undefined) referencedNouns(document, schema.items, depth + 1, found);
  return found;
}

/**
 * The collections in the order they are seeded: each after those its items
 * refer to (`petId` → `/pets`), else in the order given; a cycle is broken
 * where it closes (there, the reference is drawn like any value).
 */
export function seedOrder(document: object, collections: readonly SeedCollection[]): SeedCollection[] {
  const byNoun = new Map(collections.map((c) => [nounOf(c), c]));
  const order: SeedCollection[] = [];
  const visiting = new Set<SeedCollection>();
  const visit = (collection: SeedCollection) => {
    if (order.includes(collection) || visiting.has(collection)) return;
    visiting.add(collection);
    const nouns = referencedNouns(document, { $ref: `#${collection.schemaPointer.replace(/^#/, '')}` });
    for (const n of nouns) {
      const target = byNoun.get(n);
      if (target && target !== collection) visit(target);
    }
    order.push(collection);
  };
  collections.forEach(visit);
  return order;
}

/** The id of the item at `index`: counted from 1, a UUID drawn from the seed, or a string from the id's schema, unique. */
function idOf(collection: SeedCollection, index: number, context: SampleContext, schema: unknown, taken: Set<ItemId>): ItemId {
  if (collection.idKind === 'integer') return index + 1;
  if (collection.idKind === 'uuid') return uuidV4(context.random);
  for (let attempt = 0; attempt < 10; attempt++) {
    const id = generate(schema, collection.idField, context, 1);
    if (typeof id === 'string' && id !== '' && !taken.has(id)) return id;
  }
  return String(index + 1);
}

function seedOne(document: object, collection: SeedCollection, options: SeedOptions, references: Map<string, readonly ItemId[]>): Item[] {
  const faker = options.faker ?? fakerEn();
  const pointer = `#${collection.schemaPointer.replace(/^#/, '')}`;
  const schema = effective(document, { $ref: pointer });
  const idSchema = (schema.properties as Record<string, unknown> | undefined)?.[collection.idField] ?? {};
  const subject = collection.name.split('/').filter(Boolean).pop();
  const taken = new Set<ItemId>();
  const items: Item[] = [];
  // One shared Faker, reseeded per collection (a seed costs about as much as an item):
  // seeding is synchronous, so no other call interleaves.
  faker.seed(fakerSeedOf(seededRandom('schema-seed-faker', options.seed, collection.name)));
  for (let index = 0; index < options.count; index++) {
    const random: Random = seededRandom('schema-seed', options.seed, collection.name, index);
    const context: SampleContext = { document, random, faker, references, subject };
    const id = idOf(collection, index, context, idSchema, taken);
    taken.add(id);
    items.push(sampleObject(schema, context, 0, new Map([[collection.idField, id]])));
  }
  return items;
}

/**
 * `count` items for each collection, by collection name, in the order the
 * collections are given. Integer ids run 1..count; UUIDs and other ids are
 * drawn from the seed. A `<x>Id` property takes the id of an item seeded in
 * the collection named like x (`petId` → `/pets`), seeded first for that.
 * Deterministic for (document, collections, seed, count) and the Faker build.
 */
export function seedCollections(document: object, collections: readonly SeedCollection[], options: SeedOptions): Map<string, Item[]> {
  const references = new Map<string, readonly ItemId[]>(options.references);
  const seeded = new Map<string, Item[]>();
  for (const collection of seedOrder(document, collections)) {
    if (nodeAt(document, collection.schemaPointer) === undefined) {
      seeded.set(collection.name, []);
      continue;
    }
    const items = seedOne(document, collection, options, references);
    seeded.set(collection.name, items);
    references.set(
      nounOf(collection),
      items.map((item) => item[collection.idField] as ItemId),
    );
  }
  return new Map(collections.map((c) => [c.name, seeded.get(c.name) ?? []]));
}
