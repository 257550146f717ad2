/**
 * What the Dredd hooks of a loaded spec need to know of one operation,
 * read from the spec once by verify (spec-plan.ts) and handed to them as
 * JSON: how its credential is sent, which request it refuses with a 400,
 * and, for an item path, where an existing id is found and which id is
 * missing.
 */
import { randomUUID } from 'node:crypto';
import { resolved } from '../../src/openapi/schema-ref.js';

type Json = Record<string, unknown>;

/** Where the key goes, as the operation's security scheme says. */
export interface Credential {
  in: 'header' | 'query' | 'cookie';
  name: string;
  /** Written before the key: `Bearer `, `Basic `, or nothing (an API key). */
  prefix: string;
}

/** Where the items an item path addresses are listed, and made when there is none. */
export interface CollectionPlan {
  /** The collection's path, e.g. `/items`. */
  path: string;
  /** The item's property that holds its id. */
  idField: string;
  credential?: Credential;
  /** A JSON body its `POST` takes (its example), when it has one. */
  createBody?: string;
  createCredential?: Credential;
}

export interface OperationPlan {
  operationId: string;
  method: string;
  /** The path template, e.g. `/items/{itemId}`. */
  template: string;
  /** None: the operation is open (`security: []`). */
  credential?: Credential;
  /** A request the spec refuses: a body of the wrong type, or a query value of the wrong type; none when neither exists. */
  invalid?: { body?: string; query?: string };
  /** The item path's first parameter, with an id no item has. */
  id?: { name: string; missing: string };
  collection?: CollectionPlan;
}

/** A JSON media type of a content map (`application/json`, `application/merge-patch+json`). */
export const jsonMedia = (content: unknown): string | undefined =>
  Object.keys((content ?? {}) as Json).find((media) => /^application\/([\w.-]+\+)?json$/.test(media));

/** The credential of the operation's first security requirement (the spec's own when the operation has none). */
function credentialOf(doc: Json, operation: Json): Credential | undefined {
  const requirements = (operation.security ?? doc.security ?? []) as Json[];
  const schemes = ((doc.components as Json | undefined)?.securitySchemes ?? {}) as Json;
  const name = requirements.length === 0 ? undefined : Object.keys(requirements[0] as Json)[0];
  if (name === undefined) return undefined;
  const scheme = resolved(doc, schemes[name]);
  if (scheme.type === 'apiKey' && typeof scheme.name === 'string')
    return { in: scheme.in === 'query' || scheme.in === 'cookie' ? scheme.in : 'header', name: scheme.name, prefix: '' };
  const basic = scheme.type === 'http' && String(scheme.scheme).toLowerCase() === 'basic';
  return { in: 'header', name: 'Authorization', prefix: basic ? 'Basic ' : 'Bearer ' };
}

const parametersOf = (doc: Json, item: Json, operation: Json): Json[] =>
  [...((item.parameters ?? []) as unknown[]), ...((operation.parameters ?? []) as unknown[])].map((node) => resolved(doc, node));

/** A query value the parameter's schema refuses, if the schema says enough to refuse one. */
function wrongQueryValue(doc: Json, parameter: Json): string | undefined {
  const schema = resolved(doc, parameter.schema);
  if (['integer', 'number', 'boolean'].includes(String(schema.type))) return 'not-a-number';
  if (Array.isArray(schema.enum)) return 'not-one-of-the-values';
  return undefined;
}

/** A request the operation refuses: a body of the wrong JSON type, else a query parameter of the wrong type. */
function invalidRequest(doc: Json, item: Json, operation: Json): OperationPlan['invalid'] {
  const body = resolved(doc, operation.requestBody);
  const media = jsonMedia(body.content);
  if (media !== undefined) {
    const schema = resolved(doc, ((body.content as Record<string, Json>)[media] as Json).schema);
    return { body: schema.type === 'array' ? '{}' : '[]' };
  }
  for (const parameter of parametersOf(doc, item, operation)) {
    const value = parameter.in === 'query' ? wrongQueryValue(doc, parameter) : undefined;
    if (value !== undefined) return { query: `${encodeURIComponent(String(parameter.name))}=${value}` };
  }
  return undefined;
}

/** An id of the parameter's type that no item is expected to have. */
function missingId(schema: Json): string {
  if (schema.type === 'integer' || schema.type === 'number') {
    const max = typeof schema.maximum === 'number' ? schema.maximum : 999_999_999;
    return String(Math.min(999_999_999, max));
  }
  return schema.format === 'uuid' ? randomUUID() : `missing-${randomUUID()}`;
}

/** The collection an item path belongs to: its path up to the first parameter, with a `get` that lists them. */
function collectionOf(doc: Json, template: string): CollectionPlan | undefined {
  const path = template.slice(0, template.indexOf('/{'));
  const item = ((doc.paths ?? {}) as Record<string, Json>)[path];
  const list = item?.get as Json | undefined;
  if (!item || !list) return undefined;
  const listed = resolved(doc, resolved(doc, (resolved(doc, list.responses) as Json)['200']).content);
  const media = jsonMedia(listed);
  const items = media ? resolved(doc, resolved(doc, (listed[media] as Json).schema).items) : {};
  const properties = Object.keys((items.properties ?? {}) as Json);
  const create = item.post as Json | undefined;
  const createBody = create ? resolved(doc, create.requestBody) : {};
  const createMedia = jsonMedia(createBody.content);
  const example = createMedia ? ((createBody.content as Record<string, Json>)[createMedia] as Json).example : undefined;
  return {
    path,
    idField: properties.includes('id') || properties.length === 0 ? 'id' : (properties[0] as string),
    credential: credentialOf(doc, list),
    createBody: example === undefined ? undefined : JSON.stringify(example),
    createCredential: create ? credentialOf(doc, create) : undefined,
  };
}

/** The plan of the operation `method` of the path item `item` at `template`. */
export function operationPlan(doc: Json, template: string, item: Json, method: string): OperationPlan {
  const operation = item[method] as Json;
  const plan: OperationPlan = {
    operationId: String(operation.operationId ?? `${method.toUpperCase()} ${template}`),
    method: method.toUpperCase(),
    template,
    credential: credentialOf(doc, operation),
    invalid: invalidRequest(doc, item, operation),
  };
  const first = /\{([^}]+)\}/.exec(template)?.[1];
  const parameter = parametersOf(doc, item, operation).find((p) => p.in === 'path' && p.name === first);
  if (first !== undefined && parameter) {
    plan.id = { name: first, missing: missingId(resolved(doc, parameter.schema)) };
    plan.collection = collectionOf(doc, template);
  }
  return plan;
}
