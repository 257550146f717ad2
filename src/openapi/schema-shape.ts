/**
 * A schema of a spec as the conventions read it: `$ref`s followed and
 * `allOf` merged, so that a property declared through either (the Pet
 * Store's errors use `allOf`) is found. Read-only: the document is never
 * changed, and validation stays with `openapi/validate.ts`.
 */
import { foldSchema, located, nodeAt, type Located } from './schema-ref.js';

type Json = Record<string, unknown>;

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

/** A property's schema with its `$ref` followed and its `allOf` members folded into one object (later members win). */
const flatten = (document: unknown, pointer: string): Json =>
  foldSchema<Json>(document, nodeAt(document, pointer), pointer, { leaf: ({ node }) => node, join: mergeMember, maxDepth: 10 }) ?? {};

/** A schema with a member of its `allOf` folded in: properties and requirements gathered, any other keyword the member's. */
function mergeMember(merged: Json, member: Json): Json {
  const properties = { ...(merged.properties as Json | undefined), ...(member.properties as Json | undefined) };
  const required = [...((merged.required as string[] | undefined) ?? []), ...((member.required as string[] | undefined) ?? [])];
  return Object.assign({ ...merged }, member, { properties, required });
}

/** The shape of the schema at `pointer`, or undefined if there is no schema there. */
export function shapeAt(document: unknown, pointer: string): Shape | undefined {
  const found = located(document, pointer);
  if (!found) return undefined;
  const schema = flatten(document, found.pointer);
  const properties: Record<string, Json> = {};
  // Each property read where it is declared: directly, or in an `allOf` member.
  const parts = foldSchema<Located[]>(document, found.node, found.pointer, { leaf: (part) => [part], join: (a, b) => [...a, ...b], maxDepth: 10 }) ?? [];
  for (const part of parts)
    for (const name of Object.keys((part.node.properties as Json | undefined) ?? {}))
      properties[name] = flatten(document, `${part.pointer}/properties/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`);
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
