type Json = Record<string, unknown>;

export interface ParameterSpec {
  name: string;
  in: 'query' | 'path' | 'header' | 'cookie';
  required: boolean;
  /** JSON pointer (within the document) of the parameter's schema. */
  schemaPointer: string;
}

export interface ResponseSpec {
  status: number;
  /** JSON pointer of the `application/json` schema, if the response has a body. */
  schemaPointer?: string;
  /** Headers whose schema pins one value (`enum: [v]`): sent as is in every mode. */
  fixedHeaders: Record<string, string>;
}

export interface OperationSpec {
  operationId: string;
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  /** Path template as written in the spec, e.g. `/pets/{petId}`. */
  path: string;
  /** The same path in Express syntax, e.g. `/pets/:petId`. */
  routePath: string;
  deprecated: boolean;
  parameters: ParameterSpec[];
  /**
   * JSON pointer of the request body's JSON schema: `application/json`'s,
   * else the first JSON media type's (`application/merge-patch+json`);
   * `mediaTypes` lists every JSON media type the operation takes.
   */
  requestBody?: { pointer: string; required: boolean; mediaTypes: readonly string[] };
  responses: Map<number, ResponseSpec>;
}

export interface Spec {
  file: string;
  document: Json;
  operations: Map<string, OperationSpec>;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

/** `application/json`, or a JSON-based media type (`application/merge-patch+json`, `application/problem+json`). */
export const isJsonMediaType = (type: string): boolean => /^application\/(json|[\w.+-]+\+json)$/i.test(type);

export const escapePointer = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');

/** Resolves a local `$ref` (`#/...`) chain; returns the target and its pointer. */
export function resolveRef(document: Json, node: unknown, pointer: string): { node: Json; pointer: string } {
  let current = node as Json;
  let at = pointer;
  for (let hops = 0; typeof current?.$ref === 'string'; hops++) {
    if (hops > 20) throw new Error(`$ref cycle at ${at}`);
    const ref = current.$ref as string;
    if (!ref.startsWith('#/')) throw new Error(`Only local $refs are supported, found ${ref}`);
    at = ref.slice(1);
    current = at
      .split('/')
      .slice(1)
      .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
      .reduce<unknown>((acc, key) => (acc as Json | undefined)?.[key], document) as Json;
    if (current === undefined) throw new Error(`Unresolvable $ref ${ref}`);
  }
  return { node: current, pointer: at };
}

function fixedHeaders(document: Json, headers: unknown, pointer: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, raw] of Object.entries((headers ?? {}) as Json)) {
    const { node } = resolveRef(document, raw, `${pointer}/${escapePointer(name)}`);
    const values = (node.schema as Json | undefined)?.enum;
    if (Array.isArray(values) && values.length === 1) out[name] = String(values[0]);
  }
  return out;
}

function readOperation(document: Json, path: string, method: OperationSpec['method'], raw: Json, shared: unknown[]): OperationSpec {
  const base = `/paths/${escapePointer(path)}`;
  const opPointer = `${base}/${method}`;
  const params = [
    ...shared.map((p, i) => resolveRef(document, p, `${base}/parameters/${i}`)),
    ...((raw.parameters as unknown[] | undefined) ?? []).map((p, i) => resolveRef(document, p, `${opPointer}/parameters/${i}`)),
  ];
  const parameters = params.map(({ node, pointer }) => ({
    name: node.name as string,
    in: node.in as ParameterSpec['in'],
    required: node.required === true,
    schemaPointer: `${pointer}/schema`,
  }));

  let requestBody: OperationSpec['requestBody'];
  if (raw.requestBody) {
    const { node, pointer } = resolveRef(document, raw.requestBody, `${opPointer}/requestBody`);
    const types = Object.keys((node.content ?? {}) as Json).filter(isJsonMediaType);
    const chosen = types.includes('application/json') ? 'application/json' : types[0];
    if (chosen !== undefined) {
      const mediaTypes = types.map((type) => type.toLowerCase());
      requestBody = { pointer: `${pointer}/content/${escapePointer(chosen)}/schema`, required: node.required === true, mediaTypes };
    }
  }

  const responses = new Map<number, ResponseSpec>();
  for (const [code, rawResponse] of Object.entries((raw.responses ?? {}) as Json)) {
    const { node, pointer } = resolveRef(document, rawResponse, `${opPointer}/responses/${code}`);
    const json = (node.content as Json | undefined)?.['application/json'];
    responses.set(Number(code), {
      status: Number(code),
      ...(json ? { schemaPointer: `${pointer}/content/application~1json/schema` } : {}),
      fixedHeaders: fixedHeaders(document, node.headers, `${pointer}/headers`),
    });
  }

  return {
    operationId: raw.operationId as string,
    method,
    path,
    routePath: path.replace(/\{([^}]+)\}/g, ':$1'),
    deprecated: raw.deprecated === true,
    parameters,
    ...(requestBody ? { requestBody } : {}),
    responses,
  };
}

/** Indexes an OpenAPI 3.0 document by `operationId`; `file` names it in messages. */
export function indexSpec(file: string, document: Json): Spec {
  const operations = new Map<string, OperationSpec>();
  for (const [path, item] of Object.entries((document.paths ?? {}) as Record<string, Json>)) {
    const shared = (item.parameters as unknown[] | undefined) ?? [];
    for (const method of METHODS) {
      const raw = item[method] as Json | undefined;
      if (!raw) continue;
      if (typeof raw.operationId !== 'string') throw new Error(`${method.toUpperCase()} ${path} has no operationId`);
      operations.set(raw.operationId, readOperation(document, path, method, raw, shared));
    }
  }
  return { file, document, operations };
}

/** The operation, or an error naming it: handlers and spec must not drift apart. */
export function operation(spec: Spec, operationId: string): OperationSpec {
  const op = spec.operations.get(operationId);
  if (!op) throw new Error(`The spec ${spec.file} has no operation ${operationId}`);
  return op;
}
