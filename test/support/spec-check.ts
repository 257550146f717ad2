/**
 * An independent check of responses against spec/openapi.yaml: it shares no
 * code with the server (openapi-response-validator on a document
 * dereferenced by @apidevtools/json-schema-ref-parser), so a bug in the
 * server's own spec handling cannot hide itself.
 */
import $RefParser from '@apidevtools/json-schema-ref-parser';
import ResponseValidatorModule from 'openapi-response-validator';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

export const SPEC_PATH = fileURLToPath(new URL('../../spec/openapi.yaml', import.meta.url));

type Json = Record<string, any>;

// A CommonJS module whose default export is the class.
export const OpenAPIResponseValidator = ((ResponseValidatorModule as unknown as { default?: unknown }).default ?? ResponseValidatorModule) as unknown as typeof ResponseValidatorModule.default;

export interface CheckedResponse {
  status: number;
  headers: Headers;
  body: unknown;
}

const ERROR_SCHEMA_POINTER = ['components', 'schemas', 'Error'];

// Compiling a validator costs tens of milliseconds; fuzz tests check thousands of responses.
const validators = new Map<string, InstanceType<typeof OpenAPIResponseValidator>>();
function validatorFor(key: string, status: number, schema: Json): InstanceType<typeof OpenAPIResponseValidator> {
  let validator = validators.get(key);
  if (!validator) validators.set(key, (validator = new OpenAPIResponseValidator({ responses: { [String(status)]: { schema } } })));
  return validator;
}

let loaded: Promise<Json> | undefined;
const document = () => (loaded ??= $RefParser.dereference(parse(readFileSync(SPEC_PATH, 'utf8'))) as Promise<Json>);

function findOperation(doc: Json, operationId: string): Json {
  for (const item of Object.values(doc.paths as Json)) {
    for (const op of Object.values(item as Json)) if ((op as Json)?.operationId === operationId) return op as Json;
  }
  throw new Error(`No operation ${operationId} in the spec`);
}

/**
 * Problems of one response of `operationId`: status documented (or, for
 * statuses the sandbox adds where the interface is silent, an Error body),
 * exact `application/json` Content-Type, body valid against the schema,
 * Error `status` equal to the HTTP status, pinned header values present.
 */
export async function responseProblems(operationId: string, res: CheckedResponse): Promise<string[]> {
  const doc = await document();
  const op = findOperation(doc, operationId);
  const problems: string[] = [];
  const documented = op.responses[String(res.status)] as Json | undefined;
  const contentType = res.headers.get('content-type');
  if (contentType !== 'application/json') problems.push(`Content-Type is '${contentType}', expected exactly 'application/json'`);
  const schema = documented ? documented.content?.['application/json']?.schema : ERROR_SCHEMA_POINTER.reduce((n: Json, k) => n[k], doc);
  const validator = validatorFor(`${operationId} ${res.status}`, res.status, schema);
  const failure = validator.validateResponse(res.status, res.body);
  if (failure) problems.push(`body does not match the ${documented ? 'documented' : 'Error'} schema of ${operationId} ${res.status}: ${JSON.stringify(failure.errors)}`);
  if (res.status >= 400 && (res.body as Json | null)?.status !== res.status) problems.push(`Error status ${(res.body as Json | null)?.status} differs from HTTP status ${res.status}`);
  for (const [name, header] of Object.entries((documented?.headers ?? {}) as Json)) {
    const pinned = header.schema?.enum;
    const value = res.headers.get(name);
    if (header.required && value === null) problems.push(`header ${name} is missing`);
    if (Array.isArray(pinned) && value !== null && !pinned.includes(value)) problems.push(`header ${name} is '${value}', expected one of ${pinned.join(' | ')}`);
  }
  return problems;
}

/** Throws with every problem if the response is not valid against the spec. */
export async function expectSpecValid(operationId: string, res: CheckedResponse): Promise<void> {
  const problems = await responseProblems(operationId, res);
  if (problems.length > 0) throw new Error(`${operationId} ${res.status} is not valid against spec/openapi.yaml:\n- ${problems.join('\n- ')}\nbody: ${JSON.stringify(res.body)}`);
}

/** Every documented status of every operation, from the spec itself. */
export async function documentedStatuses(): Promise<Map<string, number[]>> {
  const doc = await document();
  const out = new Map<string, number[]>();
  for (const item of Object.values(doc.paths as Json)) {
    for (const op of Object.values(item as Json)) {
      if ((op as Json)?.operationId) out.set((op as Json).operationId, Object.keys((op as Json).responses).map(Number));
    }
  }
  return out;
}
