/**
 * The one reader of a schema's references and composition for the parts of
 * the sandbox that read schemas themselves: the conventions
 * (`schema-shape.ts`), error bodies (`schema-flat.ts`) and seeding
 * (`store/schema-node.ts`). It follows local `$ref`s and walks `allOf` (and,
 * where asked, the first `oneOf`/`anyOf` branch); each reader folds the
 * parts its own way. Read-only: the document is never changed, and the
 * validators (`validate.ts`) remain the judge of values.
 */
type Json = Record<string, unknown>;

/** A schema node, with the JSON pointer it was found at ('' when it was handed in). */
export interface Located {
  node: Json;
  pointer: string;
}

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** More `$ref`s in a row than any spec needs: a chain this long goes in circles. */
const MAX_HOPS = 32;

/** The node at a JSON pointer (`/components/schemas/Pet`, `#/components/...`; '' is the document), if there is one. */
export function nodeAt(document: unknown, pointer: string): unknown {
  const path = pointer.replace(/^#/, '');
  if (path === '') return document;
  return path
    .split('/')
    .slice(1)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce<unknown>((node, key) => (isObject(node) || Array.isArray(node) ? (node as Json)[key] : undefined), document);
}

/** `node` (at `pointer`) with its local `$ref` chain followed; undefined if it leads nowhere, out of the document, or in circles. */
export function followRef(document: unknown, node: unknown, pointer = ''): Located | undefined {
  let at = pointer;
  let current = node;
  for (let hops = 0; isObject(current) && typeof current.$ref === 'string'; hops++) {
    const ref = current.$ref;
    if (hops >= MAX_HOPS || !ref.startsWith('#')) return undefined;
    at = ref.slice(1);
    current = nodeAt(document, at);
  }
  return isObject(current) ? { node: current, pointer: at } : undefined;
}

/** `node` with its local `$ref` chain followed, or an empty schema when it leads nowhere. */
export const resolved = (document: unknown, node: unknown): Json => followRef(document, node)?.node ?? {};

/** The schema at `pointer` with its `$ref` chain followed; undefined if there is none. */
export const located = (document: unknown, pointer: string): Located | undefined => followRef(document, nodeAt(document, pointer), pointer);

/** How a reader folds a schema's parts into what it reads of them. */
export interface SchemaFold<T> {
  /** One part: a schema, its `$ref` followed, without the composition the fold walks. */
  leaf: (part: Located) => T;
  /** What a part and a member of its composition make together (members in order). */
  join: (into: T, member: T) => T;
  /** Whether the first `oneOf` and `anyOf` branches are members too (else they stay in the part, unread). */
  firstBranch?: boolean;
  /** How deep composition is walked: a member deeper than this adds nothing (a recursive schema stops). */
  maxDepth: number;
  /** Folds already made, by node: a spec's nodes are read, never changed, once loaded. */
  memo?: WeakMap<object, T>;
}

/**
 * The schema at `node` (found at `pointer`) folded: its `$ref` followed,
 * then its own keywords (`leaf`) joined with each `allOf` member's fold in
 * order, and with `firstBranch` the first `oneOf` and `anyOf` branches'.
 * Undefined when `node` resolves to no schema, or lies past `maxDepth`.
 */
export function foldSchema<T>(document: unknown, node: unknown, pointer: string, fold: SchemaFold<T>, depth = 0): T | undefined {
  const known = isObject(node) ? fold.memo?.get(node) : undefined;
  if (known !== undefined) return known;
  const found = depth > fold.maxDepth ? undefined : followRef(document, node, pointer);
  if (!found) return undefined;
  const { allOf, oneOf, anyOf, ...others } = found.node;
  const own = fold.firstBranch ? others : { ...others, ...(oneOf === undefined ? {} : { oneOf }), ...(anyOf === undefined ? {} : { anyOf }) };
  const members: [unknown, string][] = (Array.isArray(allOf) ? allOf : []).map((member, i) => [member, `${found.pointer}/allOf/${i}`]);
  if (fold.firstBranch)
    for (const [name, list] of [
      ['oneOf', oneOf],
      ['anyOf', anyOf],
    ] as const)
      if (Array.isArray(list) && list.length > 0) members.push([list[0], `${found.pointer}/${name}/0`]);
  let out = fold.leaf({ node: own, pointer: found.pointer });
  for (const [member, at] of members) {
    const folded = foldSchema(document, member, at, fold, depth + 1);
    if (folded !== undefined) out = fold.join(out, folded);
  }
  if (isObject(node)) fold.memo?.set(node, out);
  return out;
}
