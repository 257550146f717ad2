/**
 * An error answer's body in the shape the spec documents for it. The
 * sandbox's errors are `{code, message, status}` (the error catalogue); a
 * spec served from a file may document another shape (`{error, detail}`,
 * RFC 9457's problem details), and a client of that API reads that one.
 *
 * Which schema: the one the operation documents for the status (its exact
 * code, else its `4XX`/`5XX` range, else its `default` response), in
 * `application/json` or any `+json` media type; when it documents none, or
 * no operation matched (an unknown path's 404, a 405), the schema the spec
 * uses most for its 4xx and 5xx responses across operations (the first of
 * those used most, in the spec's order). A schema with `code`, `message`
 * and `status` takes the sandbox's Error as is; another gets its properties
 * filled from the error by name, its other required ones sampled simply;
 * the result checked against the schema, and the sandbox's Error whenever
 * it fails or no schema is found (docs/spec-behaviour.md).
 */
import { flattenSchema, objectShape, sampleValue, simplyFits, typeOf, type ObjectShape } from './schema-flat.js';
import { escapePointer, resolveRef, type Spec } from './spec.js';
import type { SchemaCheck, Validators } from './validate.js';

type Json = Record<string, unknown>;

/** The sandbox's error, as the error catalogue makes it. */
export interface SandboxError {
  code: string;
  message: string;
  status: number;
}

/** The body of an error answer of `operationId` (undefined: no operation matched) with `status`. */
export type ErrorShaper = (operationId: string | undefined, status: number, error: SandboxError) => unknown;

/** What of the error a property takes, by its name (lower-case): its code, its message, or its status. */
const ROLES = new Map<string, keyof SandboxError>([
  ...['error', 'title', 'type', 'code', 'name', 'error_code', 'errorcode'].map((n) => [n, 'code'] as const),
  ...['detail', 'message', 'description', 'error_description', 'reason', 'details'].map((n) => [n, 'message'] as const),
  ...['status', 'statuscode', 'status_code', 'httpstatus', 'http_status'].map((n) => [n, 'status'] as const),
]);

/** One property of a shaped body: taken from the error (`role`), or a value sampled from its schema. */
interface Field {
  name: string;
  role?: keyof SandboxError;
  parts: Json[];
  /** The sampled value, for a required property the error cannot fill (undefined for an optional one). */
  fallback?: unknown;
  /** An object property holding fields the error fills (`{error: {code, message}}`): its own fields. */
  nested?: Field[];
}

type Plan = { shaped: false } | { shaped: true; fields: Field[]; check: SchemaCheck };

const SANDBOX: Plan = { shaped: false };

const sandboxBody = (error: SandboxError) => ({ code: error.code, message: error.message, status: error.status });

/** The pointer of a response's JSON schema: `application/json` first, else any `+json` media type. */
function jsonSchemaPointer(document: Json, response: unknown, pointer: string): string | undefined {
  const { node, pointer: at } = resolveRef(document, response, pointer);
  const content = (node.content ?? {}) as Record<string, Json | undefined>;
  const media = ['application/json', ...Object.keys(content).filter((type) => /^application\/[\w.-]+\+json$/i.test(type))].find(
    (type) => content[type]?.schema !== undefined,
  );
  return media === undefined ? undefined : `${at}/content/${escapePointer(media)}/schema`;
}

/** The responses an operation documents, as written: its `responses` object and that object's pointer. */
function responsesOf(spec: Spec, operationId: string): { responses: Json; pointer: string } | undefined {
  const op = spec.operations.get(operationId);
  if (!op) return undefined;
  const pointer = `/paths/${escapePointer(op.path)}/${op.method}/responses`;
  const paths = spec.document.paths as Record<string, Record<string, Json | undefined>> | undefined;
  return { responses: (paths?.[op.path]?.[op.method]?.responses ?? {}) as Json, pointer };
}

/** The schema an operation documents for `status`: the status, its range, or `default`. */
function documentedPointer(spec: Spec, operationId: string, status: number): string | undefined {
  const found = responsesOf(spec, operationId);
  if (!found) return undefined;
  const range = `${Math.floor(status / 100)}XX`;
  const key = [String(status), range, range.toLowerCase(), 'default'].find((k) => found.responses[k] !== undefined);
  return key === undefined ? undefined : jsonSchemaPointer(spec.document, found.responses[key], `${found.pointer}/${escapePointer(key)}`);
}

/** The error schema used most by the spec's 4xx and 5xx responses, by the schema a `$ref` leads to; the first on a tie. */
function mostUsedPointer(spec: Spec): string | undefined {
  const counts = new Map<string, { pointer: string; count: number }>();
  for (const operationId of spec.operations.keys()) {
    const found = responsesOf(spec, operationId);
    for (const key of Object.keys(found?.responses ?? {})) {
      if (!found || !/^[45](\d\d|XX)$/i.test(key)) continue;
      const pointer = jsonSchemaPointer(spec.document, found.responses[key], `${found.pointer}/${escapePointer(key)}`);
      if (pointer === undefined) continue;
      const target = resolveRef(spec.document, schemaAt(spec.document, pointer), pointer).pointer;
      const entry = counts.get(target) ?? { pointer, count: 0 };
      counts.set(target, { pointer: entry.pointer, count: entry.count + 1 });
    }
  }
  let best: { pointer: string; count: number } | undefined;
  for (const entry of counts.values()) if (!best || entry.count > best.count) best = entry;
  return best?.pointer;
}

function schemaAt(document: Json, pointer: string): unknown {
  return pointer
    .split('/')
    .slice(1)
    .reduce<unknown>((node, key) => (node as Json | undefined)?.[key.replace(/~1/g, '/').replace(/~0/g, '~')], document);
}

/** The fields of an object shape: those the error fills by name, the other required ones sampled; an object property filled the same way within. */
function fieldsOf(document: Json, shape: ObjectShape, depth: number): Field[] {
  const fields: Field[] = [];
  for (const [name, parts] of shape.properties) {
    const inner = depth < 2 && typeOf(parts) === 'object' ? objectShape(document, parts) : undefined;
    const nested = inner ? fieldsOf(document, inner, depth + 1) : [];
    const required = shape.required.has(name);
    if (nested.some((field) => field.role !== undefined || field.nested)) {
      fields.push({ name, parts, nested });
      continue;
    }
    const role = ROLES.get(name.toLowerCase());
    if (role === undefined && !required) continue;
    fields.push({ name, parts, fallback: required ? sampleValue(document, parts) : undefined, ...(role ? { role } : {}) });
  }
  return fields;
}

/** How a body of the schema at `pointer` is made: the sandbox's Error, or fields filled from the error. */
function planFor(spec: Spec, validators: Validators, pointer: string | undefined): Plan {
  if (pointer === undefined) return SANDBOX;
  const shape = objectShape(spec.document, flattenSchema(spec.document, schemaAt(spec.document, pointer), pointer));
  if (!shape) return SANDBOX;
  if (['code', 'message', 'status'].every((name) => shape.properties.has(name))) return SANDBOX;
  return { shaped: true, fields: fieldsOf(spec.document, shape, 0), check: validators.schema(pointer, 'body') };
}

/** The value a property of `role` takes from the error: the status where the schema wants a number, else the words, cut to fit. */
function valueFrom(error: SandboxError, role: keyof SandboxError, parts: readonly Json[]): string | number {
  const type = typeOf(parts);
  if (type === 'integer' || type === 'number' || (type === undefined && role === 'status')) return error.status;
  const text = role === 'status' ? String(error.status) : error[role];
  const most = Math.min(...parts.map((p) => (typeof p.maxLength === 'number' ? p.maxLength : Infinity)));
  return [...text].length > most ? [...text].slice(0, most).join('') : text;
}

function shapedBody(fields: readonly Field[], error: SandboxError): Json {
  const body: Json = {};
  for (const { name, role, parts, fallback, nested } of fields) {
    if (nested) {
      body[name] = shapedBody(nested, error);
      continue;
    }
    const value = role === undefined ? undefined : valueFrom(error, role, parts);
    if (value !== undefined && simplyFits(value, parts)) body[name] = value;
    else if (fallback !== undefined) body[name] = fallback;
  }
  return body;
}

/**
 * The error shaper of a spec: the body of an error answer, in the shape the
 * spec documents for the operation and status. Each (operation, status) is
 * planned once; each body is checked against its schema, and falls back to
 * the sandbox's Error when it does not pass.
 */
export function createErrorShaper(spec: Spec, validators: Validators): ErrorShaper {
  const plans = new Map<string, Plan>();
  let fallback: Plan | undefined;
  const safely = (make: () => Plan): Plan => {
    try {
      return make();
    } catch {
      // A schema the sandbox cannot follow (an unresolvable `$ref`): its own Error, rather than no answer.
      return SANDBOX;
    }
  };
  const mostUsed = () => (fallback ??= safely(() => planFor(spec, validators, mostUsedPointer(spec))));

  const planOf = (operationId: string | undefined, status: number): Plan => {
    if (operationId === undefined) return mostUsed();
    const key = `${status} ${operationId}`;
    let plan = plans.get(key);
    if (!plan) {
      plan = safely(() => {
        const pointer = documentedPointer(spec, operationId, status);
        return pointer === undefined ? mostUsed() : planFor(spec, validators, pointer);
      });
      plans.set(key, plan);
    }
    return plan;
  };

  return (operationId, status, error) => {
    const plan = planOf(operationId, status);
    if (!plan.shaped) return sandboxBody(error);
    const body = shapedBody(plan.fields, error);
    try {
      return plan.check(body).length === 0 ? body : sandboxBody(error);
    } catch {
      return sandboxBody(error);
    }
  };
}
