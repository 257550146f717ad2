/**
 * The one check of real responses against a spec (spec/openapi.yaml or
 * spec/sandbox-control.yaml), for the tests and the Dredd hooks alike.
 *
 * Its independence is its point: it shares no code with the server in
 * src/ (openapi-response-validator on a document dereferenced by
 * @apidevtools/json-schema-ref-parser), so a bug in the server's own spec
 * handling cannot hide itself. It takes the spec's file path rather than
 * finding it, because the Dredd hooks run it from a bundle elsewhere.
 */
import $RefParser from '@apidevtools/json-schema-ref-parser';
import { parse as parseLossless } from 'lossless-json';
import ResponseValidatorModule from 'openapi-response-validator';

type Json = Record<string, unknown>;

interface HeaderSpec {
  required?: boolean;
  schema?: { enum?: unknown[] };
}

interface ResponseSpec {
  content?: Record<string, { schema?: unknown }>;
  headers?: Record<string, HeaderSpec>;
}

/** An operation of the spec, as found for a request. */
export interface SpecOperation {
  operationId: string;
  method: string;
  /** The path template, e.g. `/pets/{petId}`. */
  template: string;
  responses: Record<string, ResponseSpec>;
}

/** A real response: its body parsed (`body`), or as the text received (`text`, parsed here). */
export interface ResponseToCheck {
  status: number;
  /** fetch's Headers, or a plain object of header values (as Dredd has them). */
  headers: Headers | Record<string, unknown>;
  body?: unknown;
  text?: string;
}

export interface CheckOptions {
  /**
   * A status the operation does not document: a problem (the default), or
   * accepted with an Error body (a test of an answer the sandbox adds where
   * the spec is silent, such as a 413).
   */
  undocumented?: 'problem' | 'error-body';
  /** Statuses a request that matches no operation may answer, with an Error body; default none. */
  unmatched?: readonly number[];
}

// A CommonJS module whose default export is the class.
const OpenAPIResponseValidator = ((ResponseValidatorModule as unknown as { default?: unknown }).default ??
  ResponseValidatorModule) as unknown as typeof ResponseValidatorModule.default;
type Validator = InstanceType<typeof OpenAPIResponseValidator>;

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];

/** String formats the validator's Ajv ignores unless told. */
const FORMATS = {
  'date-time': (s: string) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.test(s) && !Number.isNaN(Date.parse(s)),
};
/**
 * Integer formats as bounds (the validator registers string formats only).
 * An int64 past ±(2^53-1) is judged from its digits before it gets here
 * (see `judgedNumber`), so the bounds of int64 are those a double holds
 * exactly: a number beyond them that is no plain integer literal (`1e19`)
 * may have lost digits.
 */
const INTEGER_BOUNDS: Record<string, [number, number]> = { int64: [-Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER], int32: [-(2 ** 31), 2 ** 31 - 1] };

/** OpenAPI 3.0 schema details in the JSON Schema form the validator's Ajv reads: boolean exclusive bounds, integer formats. */
function toJsonSchema(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(toJsonSchema);
  if (!node || typeof node !== 'object') return node;
  const out: Json = Object.fromEntries(Object.entries(node).map(([k, v]) => [k, toJsonSchema(v)]));
  const bounds = typeof out.format === 'string' ? INTEGER_BOUNDS[out.format] : undefined;
  if (bounds) {
    delete out.format;
    out.minimum = Math.max(typeof out.minimum === 'number' ? out.minimum : bounds[0], bounds[0]);
    out.maximum = Math.min(typeof out.maximum === 'number' ? out.maximum : bounds[1], bounds[1]);
  }
  for (const [flag, bound] of [
    ['exclusiveMinimum', 'minimum'],
    ['exclusiveMaximum', 'maximum'],
  ] as const) {
    if (typeof out[flag] !== 'boolean') continue;
    if (out[flag]) out[flag] = out[bound];
    else delete out[flag];
    if (out[flag] !== undefined) delete out[bound];
  }
  return out;
}

function headerOf(headers: ResponseToCheck['headers'], name: string): string | undefined {
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  const key = Object.keys(headers).find((k) => k.toLowerCase() === name.toLowerCase());
  const value = key === undefined ? undefined : headers[key];
  return value === undefined ? undefined : String(value);
}

const INT64_MAX = 2n ** 63n - 1n;

/**
 * A number literal as the validator can judge it. An integer literal past
 * ±(2^53-1), which a double would round, is judged from its digits: within
 * int64 it stands as the largest safe integer of its sign (valid wherever an
 * int64 is, bounds kept), outside int64 as a fraction (valid as no integer).
 * Any other literal is the number it reads as.
 */
function judgedNumber(literal: string): number {
  const n = Number(literal);
  if (Number.isSafeInteger(n) || !/^-?\d+$/.test(literal)) return n;
  const exact = BigInt(literal);
  if (exact > INT64_MAX || exact < -INT64_MAX - 1n) return 0.5;
  return exact > 0n ? Number.MAX_SAFE_INTEGER : -Number.MAX_SAFE_INTEGER;
}

/** The body as JSON, or why it is not. A text with 16 digits in a row may hold an integer a double rounds: it is parsed by its digits. */
function parsedBody(res: ResponseToCheck): { ok: true; body: unknown } | { ok: false } {
  if (res.text === undefined) return { ok: true, body: res.body };
  try {
    return { ok: true, body: /\d{16}/.test(res.text) ? parseLossless(res.text, null, judgedNumber) : (JSON.parse(res.text) as unknown) };
  } catch {
    return { ok: false };
  }
}

/** An error body's `status`, where its schema has one (the Pet Store's Error), equals the HTTP status; a spec's other error shapes (`{error, detail}`) have none to compare. */
const isErrorStatus = (body: unknown, status: number) =>
  body !== null && typeof body === 'object' && ((body as Json).status === status || !Object.hasOwn(body as Json, 'status'));

export interface SpecChecker {
  /** The operation `method path` addresses; `path` is relative to the spec's base (`/pets/7`), a query string is ignored. */
  find(method: string, path: string): Promise<SpecOperation | undefined>;
  /** The operation with this id; throws if the spec has none. */
  byId(operationId: string): Promise<SpecOperation>;
  /** Every documented status of every operation. */
  documentedStatuses(): Promise<Map<string, number[]>>;
  /**
   * Problems of one response to `op` (undefined: a request that matches no
   * operation): status documented, exact `application/json` Content-Type,
   * body JSON and valid against the schema, Error `status` equal to the
   * HTTP status, pinned headers present with their values. None means the
   * response keeps the contract.
   */
  problems(op: SpecOperation | undefined, res: ResponseToCheck, options?: CheckOptions): Promise<string[]>;
}

/**
 * What an answer the spec does not document may carry, in a spec without an
 * `Error` schema: one of the bodies its operations document for their 4xx
 * and 5xx answers (as one schema, `anyOf` them); undefined when there is none.
 */
function errorSchemasOf({ operations }: { operations: SpecOperation[] }): Json | undefined {
  const schemas = new Map<string, unknown>();
  for (const op of operations)
    for (const [status, response] of Object.entries(op.responses)) {
      const schema = Number(status) >= 400 ? response.content?.['application/json']?.schema : undefined;
      if (schema !== undefined) schemas.set(JSON.stringify(schema), schema);
    }
  return schemas.size === 0 ? undefined : { anyOf: [...schemas.values()] };
}

/** A checker of responses against the spec in `specFile`, loaded and dereferenced on first use. */
export function createSpecChecker(specFile: string): SpecChecker {
  let loaded: Promise<{ doc: Json; operations: (SpecOperation & { pattern: RegExp })[] }> | undefined;
  // From the file path, so that a reference to a file beside it (`./openapi.yaml#/...`) resolves.
  const load = () =>
    (loaded ??= ($RefParser.dereference(specFile) as Promise<Json>).then((doc) => {
      const operations = [];
      for (const [template, item] of Object.entries(doc.paths as Record<string, Json>)) {
        const pattern = new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`);
        for (const method of METHODS) {
          const op = item[method] as { operationId: string; responses: Record<string, ResponseSpec> } | undefined;
          if (op) operations.push({ operationId: op.operationId, method: method.toUpperCase(), template, responses: op.responses, pattern });
        }
      }
      return { doc, operations };
    }));
  // One compiled validator per schema object (dereferencing shares them), under `default` so any status reaches it.
  const validators = new Map<unknown, Validator>();
  const validatorFor = (schema: unknown): Validator => {
    let v = validators.get(schema);
    if (!v)
      validators.set(schema, (v = new OpenAPIResponseValidator({ responses: { default: { schema: toJsonSchema(schema) as never } }, customFormats: FORMATS })));
    return v;
  };

  const find = async (method: string, path: string) => {
    const bare = path.split('?')[0] as string;
    return (await load()).operations.find((o) => o.method === method.toUpperCase() && o.pattern.test(bare));
  };

  return {
    find,
    async byId(operationId) {
      const found = (await load()).operations.find((o) => o.operationId === operationId);
      if (!found) throw new Error(`No operation ${operationId} in ${specFile}`);
      return found;
    },
    async documentedStatuses() {
      return new Map((await load()).operations.map((o) => [o.operationId, Object.keys(o.responses).map(Number)]));
    },
    async problems(op, res, options = {}) {
      const { doc } = await load();
      const status = res.status;
      const documented = op?.responses[String(status)];
      const problems: string[] = [];
      if (!op && !(options.unmatched ?? []).includes(status)) problems.push(`no operation of the spec matches the request, yet it was answered ${status}`);
      if (op && !documented && options.undocumented !== 'error-body')
        problems.push(`status ${status} is not documented for ${op.operationId} (documented: ${Object.keys(op.responses).join(', ')})`);
      const contentType = headerOf(res.headers, 'content-type');
      // A documented answer that is not JSON (the metrics' text, the coverage report's Markdown): its media type is all there is to check.
      const media = Object.keys(documented?.content ?? {});
      const base = (contentType ?? '').split(';')[0]?.trim() ?? '';
      if (media.length > 0 && (!media.includes('application/json') || (base !== 'application/json' && media.includes(base))))
        return media.includes(base) ? problems : [...problems, `Content-Type is '${contentType}', expected ${media.join(' or ')}`];
      // A documented answer without content (a 204): no body at all.
      if (documented && media.length === 0) {
        const empty = (res.text ?? '') === '' && (res.body === undefined || res.body === null || res.body === '');
        return empty ? problems : [...problems, `${status} documents no body, yet one was sent`];
      }
      const parsed = parsedBody(res);
      if (!parsed.ok) return [...problems, `body is not JSON (Content-Type '${contentType}'): ${String(res.text).slice(0, 80)}`];
      if (contentType !== 'application/json') problems.push(`Content-Type is '${contentType}', expected exactly 'application/json'`);
      const errorSchema = ((doc.components as Json | undefined)?.schemas as Json | undefined)?.Error;
      const schema = documented ? documented.content?.['application/json']?.schema : (errorSchema ?? errorSchemasOf(await load()));
      if (schema === undefined) problems.push(`${documented ? 'the documented response' : 'the spec'} has no application/json schema`);
      const failure = schema === undefined ? undefined : validatorFor(schema).validateResponse(status, structuredClone(parsed.body));
      if (failure) {
        const details = (failure.errors as { path?: string; message: string }[]).map((e) => `${e.path || '(body)'} ${e.message}`).join('; ');
        problems.push(`body does not match the ${documented ? 'response' : 'Error'} schema: ${details}`);
      }
      if (status >= 400 && !isErrorStatus(parsed.body, status))
        problems.push(`Error status ${(parsed.body as Json | null)?.status} differs from HTTP status ${status}`);
      for (const [name, header] of Object.entries(documented?.headers ?? {})) {
        const value = headerOf(res.headers, name);
        const pinned = header.schema?.enum;
        if (header.required && value === undefined) problems.push(`header ${name} is missing`);
        else if (Array.isArray(pinned) && value !== undefined && !pinned.includes(value))
          problems.push(`header ${name} is '${value}', expected one of ${pinned.join(' | ')}`);
      }
      return problems;
    },
  };
}
