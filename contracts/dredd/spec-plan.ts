/**
 * A loaded spec (`verify --spec FILE`) made ready for Dredd, and the plan
 * its hooks (spec-hooks.ts) follow.
 *
 * Dredd builds each request from the spec's examples: a path parameter
 * without one stops it before anything is sent, and a JSON body without
 * one is made from the schema with empty strings, which a spec with a
 * `pattern` or a `minLength` refuses. So Dredd reads a copy of the spec
 * (its external references bundled in) whose path parameters have a
 * placeholder example, which the hooks replace with an id that exists or
 * one that does not, and whose request bodies without an example have one
 * drawn from the schema by the sandbox's own sampler, its read-only
 * properties left out. What was drawn is listed, for the report.
 */
import $RefParser from '@apidevtools/json-schema-ref-parser';
import { randomUUID } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { basePathOf } from '../../src/openapi/base-path.js';
import { resolved } from '../../src/openapi/schema-ref.js';
import { sampleValue } from '../../src/store/schema-seed.js';
import { seededRandom } from '../../src/store/schema-random.js';
import { jsonMedia, operationPlan, type Credential, type OperationPlan } from './spec-operation.js';

type Json = Record<string, unknown>;

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

/** What the hooks read: each operation by `METHOD template`. */
export interface SpecPlan {
  operations: Record<string, OperationPlan>;
}

/** A loaded spec ready for Dredd. */
export interface PreparedSpec {
  /** The spec as given (responses are checked against it). */
  file: string;
  /** `Inventory 2.0.0`: the API's name in the output and the reports. */
  title: string;
  /** Where the sandbox serves it: `/api/v2`, `''` for the root. */
  basePath: string;
  /** The copy Dredd reads. */
  dreddFile: string;
  /** The plan's file, which the hooks read. */
  planFile: string;
  /** The operations whose request body was drawn from the schema, as `createItem (POST /items)`. */
  generatedBodies: string[];
  /** Every operation, in the spec's order. */
  operations: { operationId: string; method: string; template: string }[];
  /** The credentials its operations take in a header (`Authorization: Bearer`, `X-Api-Key`), each once. */
  headerCredentials: Credential[];
}

/** A placeholder a path parameter's schema accepts; the hooks put a real id in its place. */
function placeholder(schema: Json): unknown {
  if (schema.type === 'integer' || schema.type === 'number') return typeof schema.minimum === 'number' ? Math.max(1, schema.minimum) : 1;
  return schema.format === 'uuid' ? randomUUID() : 'placeholder';
}

/** Gives every path parameter of a path item and its operations an example (Dredd needs one to build the URL). */
function fillPathExamples(doc: Json, item: Json): void {
  const lists = [item.parameters, ...METHODS.map((m) => (item[m] as Json | undefined)?.parameters)];
  for (const list of lists)
    for (const node of (list ?? []) as unknown[]) {
      const parameter = resolved(doc, node);
      if (parameter.in !== 'path' || parameter.example !== undefined || parameter.examples !== undefined) continue;
      const schema = resolved(doc, parameter.schema);
      if (schema.example === undefined && schema.default === undefined) parameter.example = placeholder(schema);
    }
}

/**
 * Writes each response an operation takes from `components/responses` in
 * its place: Dredd 14 reads one response object referenced for two statuses
 * (a shared `Refused` for 400 and 401) as the same one twice, under the
 * last status, so two transactions would bear one name and ask one status.
 */
function inlineResponses(doc: Json, operation: Json): void {
  const responses = (operation.responses ?? {}) as Json;
  for (const [status, response] of Object.entries(responses))
    if (typeof (response as Json | undefined)?.$ref === 'string') responses[status] = structuredClone(resolved(doc, response));
}

/** A body drawn from the schema, without the properties a client does not send (`readOnly`). */
function drawnBody(doc: Json, pointer: string, label: string): unknown {
  const value = sampleValue(doc, pointer, seededRandom('verify', label));
  if (!value || typeof value !== 'object' || Array.isArray(value)) return value;
  const properties = (resolved(doc, { $ref: pointer }).properties ?? {}) as Json;
  return Object.fromEntries(Object.entries(value).filter(([name]) => resolved(doc, properties[name]).readOnly !== true));
}

/** Gives a JSON request body without an example one drawn from its schema; true when it did. */
function fillBodyExample(doc: Json, pointer: string, operation: Json): boolean {
  const body = resolved(doc, operation.requestBody);
  const media = jsonMedia(body.content);
  if (media === undefined) return false;
  const entry = (body.content as Record<string, Json>)[media] as Json;
  if (entry.example !== undefined || entry.examples !== undefined || entry.schema === undefined) return false;
  if (resolved(doc, entry.schema).example !== undefined) return false;
  // The schema by its place in the copy, so that the sampler follows its references.
  const schemaPointer =
    typeof (entry.schema as Json).$ref === 'string' ? ((entry.schema as Json).$ref as string) : `${pointer}/content/${escape(media)}/schema`;
  entry.example = drawnBody(doc, schemaPointer, `${String(operation.operationId)}`);
  return true;
}

/** A JSON pointer's token. */
const escape = (token: string) => token.replace(/~/g, '~0').replace(/\//g, '~1');

/** The request body's place in the document, for the sampler: its `$ref`, or where it is written. */
function requestBodyPointer(operation: Json, template: string, method: string): string {
  const body = operation.requestBody as Json | undefined;
  return typeof body?.$ref === 'string' ? body.$ref : `#/paths/${escape(template)}/${method}/requestBody`;
}

/** The API's name: its spec's title and version. */
const titleOf = (doc: Json): string => {
  const info = (doc.info ?? {}) as Json;
  return [info.title, info.version].filter((part) => typeof part === 'string' && part !== '').join(' ') || 'API';
};

/**
 * Reads `file`, writes Dredd's copy and the hooks' plan into `dir` (named
 * after `index`, so that several specs share the folder) and says where.
 * Rejects with the reason when the spec cannot be read.
 */
export async function prepareSpec(file: string, dir: string, index: number): Promise<PreparedSpec> {
  const doc = (await $RefParser.bundle(file)) as Json;
  const generatedBodies: string[] = [];
  const operations: Record<string, OperationPlan> = {};
  const paths = (doc.paths ?? {}) as Record<string, Json>;
  for (const [template, item] of Object.entries(paths)) {
    fillPathExamples(doc, item);
    for (const method of METHODS) {
      const operation = item[method] as Json | undefined;
      if (!operation) continue;
      inlineResponses(doc, operation);
      if (fillBodyExample(doc, requestBodyPointer(operation, template, method), operation))
        generatedBodies.push(`${String(operation.operationId ?? '?')} (${method.toUpperCase()} ${template})`);
    }
  }
  for (const [template, item] of Object.entries(paths))
    for (const method of METHODS) {
      const operation = item[method] as Json | undefined;
      if (operation) operations[`${method.toUpperCase()} ${template}`] = operationPlan(doc, template, item, method);
    }
  const dreddFile = join(dir, `spec-${index}.json`);
  const planFile = join(dir, `plan-${index}.json`);
  await writeFile(dreddFile, JSON.stringify(doc));
  await writeFile(planFile, JSON.stringify({ operations } satisfies SpecPlan));
  const plans = Object.values(operations);
  const headers = plans.flatMap((op) => (op.credential?.in === 'header' ? [op.credential] : []));
  const headerCredentials = headers.filter((c, i) => headers.findIndex((d) => d.name.toLowerCase() === c.name.toLowerCase()) === i);
  const listed = plans.map(({ operationId, method, template }) => ({ operationId, method, template }));
  return { file, title: titleOf(doc), basePath: basePathOf(doc), dreddFile, planFile, generatedBodies, operations: listed, headerCredentials };
}
