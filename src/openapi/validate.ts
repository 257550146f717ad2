import { Ajv, type ErrorObject, type KeywordDefinition, type SchemaValidateFunction, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { inline, notation, parametersSchema, toDraft7, withExactInt64, type ParamPlace } from './json-schema.js';
import type { OperationSpec, Spec } from './spec.js';

type Json = Record<string, unknown>;

const MIN = -(2n ** 63n);
const MAX = 2n ** 63n - 1n;

/** The one message for an int64 out of range, or a number a double may have rounded. */
const INT64_MESSAGE = `must be an integer from ${MIN} to ${MAX} (past ±9007199254740991, written as plain digits)`;

/** Draft 7's bounds on a schema node, as its numbers; a bigint must respect them like a number does. */
function withinBounds(value: bigint, schema: Json): boolean {
  const { minimum, maximum, exclusiveMinimum, exclusiveMaximum } = schema;
  if (typeof minimum === 'number' && value < minimum) return false;
  if (typeof maximum === 'number' && value > maximum) return false;
  if (typeof exclusiveMinimum === 'number' && value <= exclusiveMinimum) return false;
  if (typeof exclusiveMaximum === 'number' && value >= exclusiveMaximum) return false;
  return true;
}

/**
 * `type: integer, format: int64` for values parsed by `parseJson`: a safe
 * integer as a number (Ajv applies the node's bounds to it), or a bigint
 * within int64 and the node's bounds. A number that is not a safe integer
 * is refused: a literal such as `9.2e18` or `1e19` came through a double, so
 * its digits may already be lost.
 */
const validateInt64: SchemaValidateFunction = (_schema: unknown, data: unknown, parentSchema?: unknown): boolean => {
  const fail = (message: string, params: Record<string, unknown>) => {
    validateInt64.errors = [{ keyword: 'x-int64', message, params }];
    return false;
  };
  if (typeof data === 'bigint') {
    if (data < MIN || data > MAX) return fail(INT64_MESSAGE, { format: 'int64' });
    return withinBounds(data, (parentSchema ?? {}) as Json) || fail('is out of range', { bounds: true });
  }
  // Infinity (`1e400`) is a number past any int64, not a wrong type.
  if (typeof data !== 'number' || Number.isNaN(data) || (Number.isFinite(data) && !Number.isInteger(data))) return fail('must be integer', { type: 'integer' });
  return Number.isSafeInteger(data) || fail(INT64_MESSAGE, { format: 'int64' });
};

/** The keyword `withExactInt64` puts in place of `type: integer, format: int64`. */
const INT64_KEYWORD: KeywordDefinition = { keyword: 'x-int64', errors: true, validate: validateInt64 };

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

/** Validators of one operation's request, compiled from the spec. */
export interface RequestValidator {
  query(raw: Record<string, unknown>): Checked<Record<string, unknown>>;
  path(raw: Record<string, string>): Checked<Record<string, unknown>>;
  /** The operation's declared header parameters, by their declared names; other headers are not looked at. */
  header(raw: RequestHeaders): Checked<Record<string, unknown>>;
  /** `raw` is `undefined` when the request had no body. */
  body(raw: unknown): Checked<unknown>;
}

/** The declared header parameters' values, by their declared names (Node lowercases header names). */
function declaredHeaders(names: readonly string[], raw: RequestHeaders): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name of names) {
    const value = raw[name.toLowerCase()];
    if (value !== undefined) out[name] = value;
  }
  return out;
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
