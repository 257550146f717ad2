/**
 * `GET /apis` and `GET /apis/{index}/spec`: the APIs the sandbox serves,
 * each with its operations (how the stateful mode answers each, where a
 * request presents its key) and its spec as loaded, for the docs page, the
 * QA console and the MCP server. Read from the specs handed in
 * (`ControlDeps.apis`); the engine's own parts are not this layer's.
 */
import { ApiError } from '../kernel/errors.js';
import { echo } from '../kernel/echo.js';
import { inferApi } from '../openapi/conventions.js';
import { PET_STORE_OPERATION_IDS } from '../openapi/petstore-operations.js';
import { securityOf, type SchemeUse } from '../openapi/security.js';
import type { OperationSpec } from '../openapi/spec.js';
import { CONTROL_BASE } from './routes.js';
import type { ControlApi, ControlContext, ControlDeps, HandlerGroup } from './handler-types.js';
import type { components } from './schema.js';

type ApiInfo = components['schemas']['ApiInfo'];
type ApiOperation = components['schemas']['ApiOperation'];
type KeyPlace = components['schemas']['ApiKeyPlace'];

/** The APIs a control plane describes: those handed in, else the embedded Pet Store's operations at `/v1` (the QA commands on the files). */
export function apisOf(deps: Pick<ControlDeps, 'apis' | 'operations'>): readonly ControlApi[] {
  if (deps.apis) return deps.apis;
  const spec = { file: '', document: {}, operations: new Map(deps.operations) };
  return [{ base: '/v1', spec, embedded: true }];
}

/** Each served operation's path with its API's base path; an id two specs share is the first's, as a fault's is. */
export function servedPathsOf(apis: readonly ControlApi[]): (op: OperationSpec) => string {
  const paths = new Map<string, string>();
  for (const { base, spec } of apis) for (const op of spec.operations.values()) if (!paths.has(op.operationId)) paths.set(op.operationId, `${base}${op.path}`);
  return (op) => paths.get(op.operationId) ?? `/v1${op.path}`;
}

/** `Bearer` for `bearer`: the scheme as an `Authorization` header usually writes it. */
const schemeWord = (scheme: string): string => scheme.charAt(0).toUpperCase() + scheme.slice(1).toLowerCase();

/** Where a request to `op` presents its key: the first alternative of one scheme the sandbox reads; none when the operation is open. */
function keyPlaceOf(api: ControlApi, op: OperationSpec): KeyPlace | undefined {
  const security = securityOf(api.spec, op);
  if (security.open) return undefined;
  const use = security.alternatives.find((schemes) => schemes.length === 1 && schemes[0] !== undefined)?.[0] as SchemeUse | undefined;
  if (use === undefined) return undefined;
  return use.kind === 'apiKey' ? { in: use.in, name: use.name } : { in: 'header', name: 'Authorization', scheme: schemeWord(use.scheme) };
}

/** One API as `GET /apis` lists it. */
function describe(api: ControlApi, index: number): ApiInfo {
  const info = (api.spec.document.info ?? {}) as { title?: unknown; version?: unknown };
  const model = api.embedded ? undefined : inferApi(api.spec);
  const operations = [...api.spec.operations.values()].map((op): ApiOperation => {
    const petStore = api.embedded || (api.layered === true && PET_STORE_OPERATION_IDS.has(op.operationId));
    const inferred = petStore ? undefined : model?.operations.get(op.operationId);
    const key = keyPlaceOf(api, op);
    return {
      operationId: op.operationId,
      method: op.method.toUpperCase(),
      path: `${api.base}${op.path}`,
      answeredBy:
        petStore ? 'petstore'
        : inferred ? 'convention'
        : 'examples',
      ...(inferred ? { collection: inferred.collection.name, role: inferred.role } : {}),
      ...(op.deprecated ? { deprecated: true } : {}),
      ...(key ? { key } : {}),
    };
  });
  const collections = (model?.collections ?? []).map((c) => {
    const list = [...(model?.operations ?? [])].find(([, o]) => o.collection.name === c.name && o.role === 'list')?.[0];
    return { name: c.name, path: `${api.base}${c.name}`, idField: c.idField, ...(list === undefined ? {} : { listOperationId: list }) };
  });
  return {
    index,
    base: api.base,
    title: typeof info.title === 'string' ? info.title : '',
    version: typeof info.version === 'string' ? info.version : '',
    embedded: api.embedded,
    specUrl: `${CONTROL_BASE}/apis/${index}/spec`,
    collections,
    operations,
  };
}

/** The served APIs and their specs. */
export function apiHandlers({ deps }: ControlContext): HandlerGroup<'listApis' | 'getApiSpec'> {
  const apis = apisOf(deps);
  // The specs never change while the sandbox runs: described once, on first ask.
  let listed: ApiInfo[] | undefined;
  return {
    listApis: () => ({ apis: (listed ??= apis.map(describe)) }),
    getApiSpec: ({ path }) => {
      const api = apis[path.index];
      if (api === undefined)
        throw ApiError.of('not_found', `No API ${echo(String(path.index), '')}: this sandbox serves ${apis.length} (GET /__sandbox/apis).`);
      return api.spec.document as components['schemas']['ApiDocument'];
    },
  };
}
