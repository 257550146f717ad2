/**
 * The JSON Schema of an MCP tool's arguments, derived from the control
 * plane's operation in spec/sandbox-control.yaml: its request body's
 * properties, its query and path parameters, and `key` for the workspace
 * (`X-Sandbox-Key`), flat in one object. Written by hand nowhere, so a
 * field added to the spec reaches the tools without an edit here.
 */
import { toDraft7 } from '../openapi/json-schema.js';
import type { OperationSpec, Spec } from '../openapi/spec.js';

type Json = Record<string, unknown>;

/** The argument that carries `X-Sandbox-Key`, the only header a tool sends. */
export const KEY_ARGUMENT = 'key';
const HEADER_ARGUMENTS: Record<string, string> = { 'x-sandbox-key': KEY_ARGUMENT };
/** The control spec refers to the interface's schemas by this file name. */
const INTERFACE_REF = './openapi.yaml#';
/** OpenAPI's own keywords, which mean nothing to a JSON Schema reader. */
const OPENAPI_ONLY = new Set(['example', 'xml', 'externalDocs', 'discriminator', 'nullable']);

/** Where each argument of a tool goes in the request. */
export interface ArgumentPlaces {
  path: string[];
  query: string[];
  /** The operation takes a body: arguments not named above go in it. */
  body: boolean;
  /** Arguments outside the schema go in the body too, for the control plane to judge (a tool that takes its whole body). */
  others: boolean;
}

/** A tool's arguments: their schema, and where each goes. */
export interface ToolArguments {
  schema: Json & { type: 'object'; properties: Json; required?: string[] };
  places: ArgumentPlaces;
}

/** The node at a JSON pointer (`/components/schemas/Pet`) of `document`. */
function at(document: Json, pointer: string): unknown {
  return pointer
    .split('/')
    .slice(1)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce<unknown>((node, part) => (node as Json | undefined)?.[part], document);
}

/** `node` with every `$ref` inlined (the control spec's and the interface's) and OpenAPI 3.0's keywords made JSON Schema's. */
function inline(node: unknown, documents: { control: Json; api: Json }, document: Json, depth = 0): unknown {
  if (depth > 32) throw new Error('The control spec nests schemas too deep to inline (a $ref cycle?).');
  if (Array.isArray(node)) return node.map((item) => inline(item, documents, document, depth + 1));
  if (!node || typeof node !== 'object') return node;
  const ref = (node as Json).$ref;
  if (typeof ref === 'string') {
    const [target, pointer] = ref.startsWith(INTERFACE_REF) ? [documents.api, ref.slice(INTERFACE_REF.length)] : [document, ref.slice(1)];
    const found = at(target, pointer);
    if (found === undefined) throw new Error(`The control spec's $ref ${ref} names nothing.`);
    return inline(found, documents, target, depth + 1);
  }
  const out: Json = {};
  for (const [name, value] of Object.entries(node)) {
    if (OPENAPI_ONLY.has(name) || (name === 'format' && (value === 'int32' || value === 'int64'))) continue;
    out[name] =
      name === 'properties' ? mapValues(value as Json, (v) => inline(v, documents, document, depth + 1)) : inline(value, documents, document, depth + 1);
  }
  if ((node as Json).nullable === true && typeof out.type === 'string') {
    out.type = [out.type, 'null'];
    if (Array.isArray(out.enum)) out.enum = [...(out.enum as unknown[]), null];
  }
  return out;
}

const mapValues = (object: Json, map: (value: unknown) => unknown): Json => Object.fromEntries(Object.entries(object).map(([k, v]) => [k, map(v)]));

/** A parameter's schema, with its description (the spec writes it on the parameter). */
function parameterSchema(control: Spec, api: Spec, op: OperationSpec, index: number): Json {
  const parameter = op.parameters[index] as OperationSpec['parameters'][number];
  const documents = { control: control.document, api: api.document };
  const schema = inline(at(control.document, parameter.schemaPointer), documents, control.document) as Json;
  const raw = at(control.document, parameter.schemaPointer.replace(/\/schema$/, '')) as Json;
  return typeof raw.description === 'string' ? { ...schema, description: raw.description } : schema;
}

/**
 * The arguments of a tool that calls `operationId`: its body's properties
 * (only those in `pick`, when given) beside its parameters. A name both
 * in the body and in a parameter, or a header other than `X-Sandbox-Key`,
 * is a spec this mapping cannot carry: it throws.
 */
export function toolArguments(control: Spec, api: Spec, operationId: string, pick?: readonly string[]): ToolArguments {
  const op = control.operations.get(operationId);
  if (!op) throw new Error(`The control spec has no operation ${operationId}.`);
  const properties: Json = {};
  const required: string[] = [];
  const places: ArgumentPlaces = { path: [], query: [], body: op.requestBody !== undefined, others: op.requestBody !== undefined && pick === undefined };
  op.parameters.forEach((parameter, index) => {
    const name = parameter.in === 'header' ? HEADER_ARGUMENTS[parameter.name.toLowerCase()] : parameter.name;
    if (name === undefined) throw new Error(`${operationId}: no tool argument carries the header ${parameter.name}.`);
    properties[name] = parameterSchema(control, api, op, index);
    if (parameter.required) required.push(name);
    if (parameter.in === 'path' || parameter.in === 'query') places[parameter.in].push(name);
  });
  let additional: unknown = pick === undefined && op.requestBody !== undefined ? undefined : false;
  if (op.requestBody) {
    const body = inline(at(control.document, op.requestBody.pointer), { control: control.document, api: api.document }, control.document) as Json;
    if (body.type !== 'object' || typeof body.properties !== 'object') throw new Error(`${operationId}: its body is not an object with properties.`);
    for (const [name, schema] of Object.entries(body.properties as Json)) {
      if (pick && !pick.includes(name)) continue;
      if (name in properties) throw new Error(`${operationId}: '${name}' is both a parameter and a body property.`);
      properties[name] = schema;
      if (op.requestBody.required && Array.isArray(body.required) && body.required.includes(name)) required.push(name);
    }
    if (pick === undefined && body.additionalProperties !== undefined) additional = body.additionalProperties;
  }
  const schema = {
    type: 'object' as const,
    properties,
    ...(required.length ? { required } : {}),
    ...(additional === undefined ? {} : { additionalProperties: additional }),
  };
  return { schema: toDraft7(schema) as ToolArguments['schema'], places };
}
