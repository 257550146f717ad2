/**
 * An independent check of control-plane responses against
 * spec/sandbox-control.yaml: it shares no code with the server
 * (openapi-response-validator on a document dereferenced by
 * @apidevtools/json-schema-ref-parser), and finds the operation from the
 * request's method and URL path, so a test cannot check a response against
 * the wrong operation.
 */
import $RefParser from '@apidevtools/json-schema-ref-parser';
import { OpenAPIResponseValidator, type CheckedResponse } from './spec-check.js';
import { fileURLToPath } from 'node:url';

export const CONTROL_SPEC_PATH = fileURLToPath(new URL('../../spec/sandbox-control.yaml', import.meta.url));

type Json = Record<string, any>;

export type { CheckedResponse };

/** String formats the validator's Ajv ignores unless told: checked here, independently of the server's. */
const FORMATS = {
  'date-time': (s: string) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.test(s) && !Number.isNaN(Date.parse(s)),
};
/** Integer formats as bounds (the validator registers string formats only): an int64 JSON can carry exactly. */
const INTEGER_BOUNDS: Record<string, [number, number]> = { int64: [-Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER], int32: [-(2 ** 31), 2 ** 31 - 1] };

let loaded: Promise<Json> | undefined;
// From the file path, so `./openapi.yaml#/...` references resolve beside it.
const document = () => (loaded ??= $RefParser.dereference(CONTROL_SPEC_PATH) as Promise<Json>);

/** OpenAPI 3.0 schema details in the JSON Schema form Ajv 8 reads: boolean exclusive bounds, integer formats. */
function toJsonSchema(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(toJsonSchema);
  if (!node || typeof node !== 'object') return node;
  const out: Json = Object.fromEntries(Object.entries(node).map(([k, v]) => [k, toJsonSchema(v)]));
  const bounds = typeof out.format === 'string' ? INTEGER_BOUNDS[out.format] : undefined;
  if (bounds) {
    delete out.format;
    out.minimum = Math.max(out.minimum ?? bounds[0], bounds[0]);
    out.maximum = Math.min(out.maximum ?? bounds[1], bounds[1]);
  }
  for (const [flag, bound] of [['exclusiveMinimum', 'minimum'], ['exclusiveMaximum', 'maximum']] as const) {
    if (typeof out[flag] !== 'boolean') continue;
    if (out[flag]) out[flag] = out[bound];
    else delete out[flag];
    if (out[flag] !== undefined) delete out[bound];
  }
  return out;
}

/** The operation a request reached: its path template and operation object, if the spec describes it. */
export async function findControlOperation(method: string, urlPath: string): Promise<{ template: string; op: Json } | undefined> {
  const doc = await document();
  const base = new URL(doc.servers[0].url as string).pathname;
  if (!urlPath.startsWith(`${base}/`)) return undefined;
  const rest = urlPath.slice(base.length).split('?')[0] as string;
  for (const [template, item] of Object.entries(doc.paths as Json)) {
    const pattern = new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`);
    const op = (item as Json)[method.toLowerCase()];
    if (pattern.test(rest) && op) return { template, op };
  }
  return undefined;
}

// One compiled validator per schema object (dereferencing shares them), under `default` so any status reaches it.
const validators = new Map<unknown, InstanceType<typeof OpenAPIResponseValidator>>();
function validatorFor(schema: unknown) {
  let v = validators.get(schema);
  if (!v) validators.set(schema, (v = new OpenAPIResponseValidator({ responses: { default: { schema: toJsonSchema(schema) } } as Json, customFormats: FORMATS as Json })));
  return v;
}

/**
 * Problems of one control response: the status must be documented for the
 * operation (a path the spec does not describe may only answer its
 * documented fallback: an Error, 404 or the admin check's 401/403), Content-Type exactly
 * `application/json`, body valid against the schema, Error `status` equal
 * to the HTTP status, required headers present with their pinned values.
 */
export async function controlProblems(method: string, urlPath: string, res: CheckedResponse): Promise<string[]> {
  const doc = await document();
  const found = await findControlOperation(method, urlPath);
  const problems: string[] = [];
  const name = found ? `${found.op.operationId} (${method} ${found.template})` : `${method} ${urlPath}`;
  let documented: Json | undefined;
  if (found) {
    documented = found.op.responses[String(res.status)] as Json | undefined;
    if (!documented) problems.push(`status ${res.status} is not documented for ${name}`);
  } else if (![401, 403, 404].includes(res.status)) {
    // The spec's fallback: an undescribed path is 404 once the admin check (401/403) has passed.
    problems.push(`${name} is not described by the spec, yet answered ${res.status} instead of 401, 403 or 404`);
  }
  const contentType = res.headers.get('content-type');
  if (contentType !== 'application/json') problems.push(`Content-Type is '${contentType}', expected exactly 'application/json'`);
  const schema = documented ? documented.content?.['application/json']?.schema : doc.components.schemas.Error;
  if (schema) {
    const failure = validatorFor(schema).validateResponse(res.status, structuredClone(res.body));
    if (failure) problems.push(`body does not match the schema of ${name} ${res.status}: ${JSON.stringify(failure.errors)}`);
  } else {
    problems.push(`${name} ${res.status} documents no application/json schema`);
  }
  if (res.status >= 400 && (res.body as Json | null)?.status !== res.status) problems.push(`Error status ${(res.body as Json | null)?.status} differs from HTTP status ${res.status}`);
  for (const [header, spec] of Object.entries((documented?.headers ?? {}) as Json)) {
    const pinned = spec.schema?.enum;
    const value = res.headers.get(header);
    if (spec.required && value === null) problems.push(`header ${header} is missing`);
    if (Array.isArray(pinned) && value !== null && !pinned.includes(value)) problems.push(`header ${header} is '${value}', expected one of ${pinned.join(' | ')}`);
  }
  return problems;
}

/** Throws with every problem if the response is not valid against spec/sandbox-control.yaml. */
export async function expectControlValid(method: string, urlPath: string, res: CheckedResponse): Promise<void> {
  const problems = await controlProblems(method, urlPath, res);
  if (problems.length > 0) throw new Error(`${method} ${urlPath} ${res.status} is not valid against spec/sandbox-control.yaml:\n- ${problems.join('\n- ')}\nbody: ${JSON.stringify(res.body)}`);
}
