import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { INT64_KEYWORD, withExactInt64 } from './int64.js';
import { toDraft7 } from './json-schema.js';
import type { OperationSpec, Spec } from './spec.js';

/** A request's headers as Node keeps them: lower-case names, a repeated one as a list. */
export type RequestHeaders = Readonly<Record<string, string | string[] | undefined>>;
/** One reason a request or record does not match the spec. */
export interface Issue {
  /** Where: `query`, `path`, `header`, `body`, or a record index for fixture sets. */
  in: string;
  /** The offending parameter or field path (`categoryId`, `0/name`); empty for the whole value. */
  name: string;
  message: string;
}

export type Checked<T> = { ok: true; value: T } | { ok: false; issues: Issue[] };

/** Checks one JSON value against one schema of the spec. */
export type SchemaCheck = (value: unknown) => Issue[];

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

/**
 * A document's id in Ajv: its file name, so that a reference from one spec
 * to a file beside it (`./openapi.yaml#/components/schemas/Pet` in the
 * control plane's) resolves to that document.
 */
const idOf = (spec: Spec) => spec.file.replace(/^.*[\\/]/, '');

function createAjv(documents: ReadonlyMap<string, unknown>, coerce: boolean): Ajv {
  // validateSchema off: it compiles JSON Schema's meta-schema at every start and checks little here (the
  // document as a whole is no JSON Schema); the spec itself is checked by `npm run lint:spec`.
  const ajv = new Ajv({ strict: false, allErrors: false, coerceTypes: coerce, useDefaults: coerce, validateSchema: false });
  addFormats(ajv);
  // Parameters are coerced from text with Number(), which rounds past 2^53: there an int64 must be a safe integer.
  ajv.addFormat('int64', { type: 'number', validate: (n: number) => Number.isSafeInteger(n) });
  ajv.addFormat('int32', { type: 'number', validate: (n: number) => Number.isInteger(n) && n >= -(2 ** 31) && n < 2 ** 31 });
  ajv.addKeyword(INT64_KEYWORD);
  for (const [id, document] of documents) ajv.addSchema(document as object, id);
  return ajv;
}

function describe(error: ErrorObject): { name: string; message: string } {
  const path = error.instancePath.slice(1);
  const p = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return { name: [path, p.missingProperty].filter(Boolean).join('/'), message: 'is required' };
    case 'additionalProperties':
      return { name: [path, p.additionalProperty].filter(Boolean).join('/'), message: 'is not allowed' };
    case 'enum':
      return { name: path, message: `must be one of: ${(p.allowedValues as unknown[]).join(', ')}` };
    case 'format':
      return { name: path, message: `must be a valid ${String(p.format)}` };
    default:
      return { name: path, message: error.message ?? 'is invalid' };
  }
}

function toIssues(where: string, fn: ValidateFunction): Issue[] {
  return (fn.errors ?? []).map((e) => ({ in: where, ...describe(e) }));
}

/** Renders issues as one human sentence for an Error body. */
export function formatIssues(issues: Issue[]): string {
  return issues
    .map((i) => {
      const subject =
        i.in === 'query' ? `Query parameter '${i.name}'`
        : i.in === 'path' ? `Path parameter '${i.name}'`
        : i.in === 'header' ? `Header '${i.name}'`
        : i.in === 'body' ?
          i.name ?
            `Request body field '${i.name.replace(/\//g, '.')}'`
          : 'Request body'
        : `Record ${i.in}${i.name ? ` field '${i.name.replace(/\//g, '.')}'` : ''}`;
      return `${subject} ${i.message}.`;
    })
    .join(' ');
}

/** Validators of one operation's request, compiled from the spec. */
export interface RequestValidator {
  query(raw: Record<string, unknown>): Checked<Record<string, unknown>>;
  path(raw: Record<string, string>): Checked<Record<string, unknown>>;
  /** The operation's declared header parameters, by their declared names; other headers are not looked at. */
  header(raw: RequestHeaders): Checked<Record<string, unknown>>;
  /** `raw` is `undefined` when the request had no body. */
  body(raw: unknown): Checked<unknown>;
}

/**
 * A copy of the schema at `pointer` whose `$ref`s point into the spec
 * documents by id. Parameter schemas are inlined this way (not `$ref`'d) because Ajv
 * applies `default`s only to schemas it reaches without a `$ref`.
 */
function inline(id: string, document: unknown, pointer: string): unknown {
  const node = pointer
    .split('/')
    .slice(1)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce<unknown>((acc, key) => (acc as Record<string, unknown>)[key], document);
  const rewrite = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(rewrite);
    if (!value || typeof value !== 'object') return value;
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, k === '$ref' && typeof v === 'string' ? absolute(id, v) : rewrite(v)]));
  };
  return rewrite(node);
}

/** A `$ref` as Ajv finds it from a schema without a base: `#/x` of this document, `./other.yaml#/x` beside it. */
const absolute = (id: string, ref: string) => (ref.startsWith('#') ? `${id}${ref}` : ref.replace(/^\.\//, ''));

/** The declared header parameters' values, by their declared names (Node lowercases header names). */
function declaredHeaders(names: readonly string[], raw: RequestHeaders): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name of names) {
    const value = raw[name.toLowerCase()];
    if (value !== undefined) out[name] = value;
  }
  return out;
}

type ParamPlace = 'query' | 'path' | 'header';

/** The object schema of an operation's parameters of one kind; each parameter's schema from `schemaAt`. */
function parametersSchema(op: OperationSpec, where: ParamPlace, schemaAt: (pointer: string) => unknown) {
  const params = op.parameters.filter((p) => p.in === where);
  return {
    type: 'object',
    properties: Object.fromEntries(params.map((p) => [p.name, schemaAt(p.schemaPointer)])),
    required: params.filter((p) => p.required).map((p) => p.name),
  };
}

/**
 * Ajv coerces strings with `Number()`, which also reads `0x10`, `1e2`,
 * `+5` and ` 7`. A parameter's text must be plain decimal notation of its
 * schema type before it is coerced.
 */
function notation(schema: ReturnType<typeof parametersSchema>): { name: string; pattern: RegExp; message: string }[] {
  return Object.entries(schema.properties).flatMap(([name, s]) => {
    const type = (s as { type?: unknown }).type;
    const pattern =
      type === 'integer' ? /^-?\d+$/
      : type === 'number' ? /^-?\d+(\.\d+)?$/
      : undefined;
    return pattern ? [{ name, pattern, message: `must be ${String(type)}` }] : [];
  });
}

function isEmpty(value: Record<string, unknown>): boolean {
  for (const _ in value) return false;
  return true;
}

const freeze = <T>(checked: Checked<T>): Checked<T> =>
  checked.ok && typeof checked.value === 'object' ? { ok: true, value: Object.freeze(checked.value) } : checked;

/** Parameters of one kind, checked: notation first, then the schema (which coerces and fills defaults) on a copy. */
function checkParams(
  { fn, numbers }: { fn: ValidateFunction | undefined; numbers: ReturnType<typeof notation> },
  where: string,
  raw: Record<string, unknown>,
): Checked<Record<string, unknown>> {
  for (const { name, pattern, message } of numbers) {
    const text = raw[name];
    if (typeof text === 'string' && !pattern.test(text)) return { ok: false, issues: [{ in: where, name, message }] };
  }
  const value = { ...raw };
  if (!fn) return { ok: true, value };
  return fn(value) ? { ok: true, value } : { ok: false, issues: toIssues(where, fn) };
}

/**
 * Compiles every schema the sandbox checks from the spec, once. Nothing
 * here knows a field name: change a constraint in `spec/openapi.yaml` (or
 * `spec/sandbox-control.yaml`) and the server's behaviour follows. `related`
 * are the specs the spec's schemas refer to by file name.
 */
export function createValidators(spec: Spec, related: readonly Spec[] = []) {
  const id = idOf(spec);
  const documents = new Map([spec, ...related].map((s) => [idOf(s), toDraft7(s.document)]));
  const document = documents.get(id);
  const coercing = createAjv(documents, true);
  // Bodies are parsed by `parseJson`: an int64 there may be a bigint, which only the `x-int64` keyword accepts.
  const strict = createAjv(new Map([...documents].map(([key, doc]) => [key, withExactInt64(doc)])), false);
  const ref = (pointer: string) => ({ $ref: `${id}#${pointer}` });

  const paramsSchema = (op: OperationSpec, where: ParamPlace) => parametersSchema(op, where, (pointer) => inline(id, document, pointer));

  const request = (op: OperationSpec): RequestValidator => {
    const querySchema = paramsSchema(op, 'query');
    const pathSchema = paramsSchema(op, 'path');
    // Without parameters of a kind, any object passes (a schema with no properties): nothing to
    // compile. Compiling each schema costs start-up time, and most operations lack one kind.
    const compile = (schema: typeof querySchema) => (Object.keys(schema.properties).length > 0 ? coercing.compile(schema) : undefined);
    const headerSchema = paramsSchema(op, 'header');
    const query = { fn: compile(querySchema), numbers: notation(querySchema) };
    const path = { fn: compile(pathSchema), numbers: notation(pathSchema) };
    const header = { fn: compile(headerSchema), numbers: notation(headerSchema) };
    const headerNames = Object.keys(headerSchema.properties);
    const body = op.requestBody ? strict.compile(ref(op.requestBody.pointer)) : undefined;
    // Most requests send no query parameter: that check's result (defaults filled in) is made once and shared, frozen.
    let noQuery: Checked<Record<string, unknown>> | undefined;
    const checkNoQuery = () => (noQuery ??= freeze(checkParams(query, 'query', {})));
    return {
      query: (raw) => (isEmpty(raw) ? checkNoQuery() : checkParams(query, 'query', raw)),
      path: (raw) => checkParams(path, 'path', raw),
      header: (raw) => checkParams(header, 'header', declaredHeaders(headerNames, raw)),
      body: (raw) => {
        if (!body) return { ok: true, value: raw };
        if (raw === undefined) {
          return op.requestBody?.required ?
              { ok: false, issues: [{ in: 'body', name: '', message: 'is required (send a JSON object)' }] }
            : { ok: true, value: raw };
        }
        return body(raw) ? { ok: true, value: raw } : { ok: false, issues: toIssues('body', body) };
      },
    };
  };

  /** A check against any schema of the document, by JSON pointer (e.g. `/components/schemas/Pet`). */
  const schema = (pointer: string, where = 'value'): SchemaCheck => {
    // Compiled on first use: start-up needs only the checks it runs (a pointer is still checked now).
    const target = pointer
      .split('/')
      .slice(1)
      .reduce<unknown>(
        (node, key) => (node && typeof node === 'object' ? (node as Record<string, unknown>)[key.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined),
        document,
      );
    if (target === undefined) throw new Error(`No schema at ${pointer} in ${spec.file}`);
    let fn: ValidateFunction | undefined;
    return (value) => {
      fn ??= strict.compile(ref(pointer));
      return fn(value) ? [] : toIssues(where, fn);
    };
  };

  return { request, schema };
}

export type Validators = ReturnType<typeof createValidators>;
