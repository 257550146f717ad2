/**
 * A schema of a spec as the conventions read it: `$ref`s followed and
 * `allOf` merged, so that a property declared through either (the Pet
 * Store's errors use `allOf`) is found. Read-only: the document is never
 * changed, and validation stays with `openapi/validate.ts`.
 */
type Json = Record<string, unknown>;

/** A schema node found in the document, with the JSON pointer it is at. */
export interface Located {
  node: Json;
  pointer: string;
}

/** A schema with its `allOf` members merged: its type, properties and requirements. */
export interface Shape {
  type?: string;
  format?: string;
  /** Each property's schema, itself resolved (its `$ref` followed, its `allOf` merged). */
  properties: Record<string, Json>;
  required: string[];
  /** Where an array's `items` schema is (its `$ref` followed). */
  items?: Located;
}

const unescape = (part: string) => part.replace(/~1/g, '/').replace(/~0/g, '~');

/** The node at a JSON pointer (`/components/schemas/Pet`), if there is one. */
export function nodeAt(document: unknown, pointer: string): unknown {
  return pointer
    .split('/')
    .slice(1)
    .reduce<unknown>((node, key) => (node && typeof node === 'object' ? (node as Json)[unescape(key)] : undefined), document);
}

/** The node at `pointer` with its local `$ref` chain followed; undefined if it leads nowhere (or in circles). */
export function located(document: unknown, pointer: string): Located | undefined {
  let at = pointer;
  let node = nodeAt(document, at);
  for (let hops = 0; node && typeof node === 'object' && typeof (node as Json).$ref === 'string'; hops++) {
    const ref = (node as Json).$ref as string;
    if (hops > 20 || !ref.startsWith('#/')) return undefined;
    at = ref.slice(1);
    node = nodeAt(document, at);
  }
  return node && typeof node === 'object' && !Array.isArray(node) ? { node: node as Json, pointer: at } : undefined;
}

/** A property's schema with its `$ref` followed and its `allOf` members folded into one object (later members win). */
function flatten(document: unknown, pointer: string, depth: number): Json {
  const found = located(document, pointer);
  if (!found || depth > 10) return {};
  const { node } = found;
  if (!Array.isArray(node.allOf)) return node;
  const merged: Json = { ...node };
  delete merged.allOf;
  node.allOf.forEach((_, i) => {
    const member = flatten(document, `${found.pointer}/allOf/${i}`, depth + 1);
    const properties = { ...(merged.properties as Json | undefined), ...(member.properties as Json | undefined) };
    const required = [...((merged.required as string[] | undefined) ?? []), ...((member.required as string[] | undefined) ?? [])];
    Object.assign(merged, member, { properties, required });
  });
  return merged;
}

/** The shape of the schema at `pointer`, or undefined if there is no schema there. */
export function shapeAt(document: unknown, pointer: string): Shape | undefined {
  const found = located(document, pointer);
  if (!found) return undefined;
  const schema = flatten(document, found.pointer, 0);
  const properties: Record<string, Json> = {};
  // Each property read where it is declared: directly, or in an `allOf` member.
  const declared = (at: string, node: Json, depth: number): void => {
    for (const name of Object.keys((node.properties as Json | undefined) ?? {}))
      properties[name] = flatten(document, `${at}/properties/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`, 0);
    if (!Array.isArray(node.allOf) || depth > 10) return;
    node.allOf.forEach((_, i) => {
      const member = located(document, `${at}/allOf/${i}`);
      if (member) declared(member.pointer, member.node, depth + 1);
    });
  };
  declared(found.pointer, found.node, 0);
  const items = schema.items === undefined ? undefined : located(document, `${found.pointer}/items`);
  return {
    ...(typeof schema.type === 'string' ? { type: schema.type } : {}),
    ...(typeof schema.format === 'string' ? { format: schema.format } : {}),
    properties,
    required: Array.isArray(schema.required) ? (schema.required as string[]) : [],
    ...(items ? { items } : {}),
  };
}

/** Whether a shape describes a JSON object: `type: object`, or properties without another type. */
export const isObjectShape = (shape: Shape | undefined): shape is Shape =>
  shape !== undefined && (shape.type === 'object' || (shape.type === undefined && Object.keys(shape.properties).length > 0));
