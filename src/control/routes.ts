/**
 * The control plane's route table: each operation of
 * spec/sandbox-control.yaml with its method and path, and the types of its
 * request and answer, generated from the spec (`schema.d.ts`). The server's
 * router and the client both build their routes from this one table, so they
 * cannot drift apart; the server refuses to start if the table and the spec
 * differ (`checkRoutes`).
 *
 * Imports nothing at run time: the client (and the Dredd hooks bundled
 * with it) carries no server code.
 */
import type { components, operations } from './schema.js';

/** Where the control plane is served, beside `/v1`. */
export const CONTROL_BASE = '/__sandbox';

export type ControlOperationId = keyof operations;

export interface ControlRoute {
  method: 'GET' | 'PUT' | 'POST' | 'DELETE';
  /** The path under `/__sandbox` as the spec writes it, e.g. `/faults/{faultId}`. */
  path: string;
  /** The status of a success (the operation's one 2xx answer). */
  status: 200 | 201;
  /** Whether the admin token is needed (every operation but the health check). */
  admin: boolean;
  /** Whether it acts on the workspace of the API key in `X-Sandbox-Key`. */
  workspace: boolean;
  /** Whether an API key opens it too, acting on that key's workspace only (the spec lists the `apiKey` scheme). */
  apiKey?: true;
  /** Served at the root, not under `/__sandbox` (the probes and metrics; the spec gives the path its own `servers`). */
  root?: true;
  /** Opened by the metrics token when the sandbox has one, else by no credential (the spec lists `metricsToken` beside `{}`). */
  metricsToken?: true;
}

/** Where a route is served: under `/__sandbox`, or at the root. */
export const routeBase = (route: ControlRoute): string => (route.root ? '' : CONTROL_BASE);

/** Every operation of spec/sandbox-control.yaml (the `satisfies` fails to compile when one is missing or unknown). */
export const CONTROL_ROUTES = {
  getHealth: { method: 'GET', path: '/health', status: 200, admin: false, workspace: false },
  getLiveness: { method: 'GET', path: '/livez', status: 200, admin: false, workspace: false, root: true },
  getReadiness: { method: 'GET', path: '/readyz', status: 200, admin: false, workspace: false, root: true },
  getMetrics: { method: 'GET', path: '/metrics', status: 200, admin: false, workspace: false, root: true, metricsToken: true },
  getMode: { method: 'GET', path: '/mode', status: 200, admin: true, workspace: false },
  setMode: { method: 'PUT', path: '/mode', status: 200, admin: true, workspace: false },
  listWorkspaces: { method: 'GET', path: '/workspaces', status: 200, admin: true, workspace: false },
  listApis: { method: 'GET', path: '/apis', status: 200, admin: true, workspace: false },
  getApiSpec: { method: 'GET', path: '/apis/{index}/spec', status: 200, admin: true, workspace: false },
  listFixtures: { method: 'GET', path: '/fixtures', status: 200, admin: true, workspace: false },
  resetWorkspace: { method: 'POST', path: '/reset', status: 200, admin: true, workspace: true },
  loadFixture: { method: 'POST', path: '/load', status: 200, admin: true, workspace: true },
  exportWorkspace: { method: 'GET', path: '/export', status: 200, admin: true, workspace: true },
  readJournal: { method: 'GET', path: '/journal', status: 200, admin: true, workspace: true },
  clearJournal: { method: 'DELETE', path: '/journal', status: 200, admin: true, workspace: true },
  streamJournal: { method: 'GET', path: '/journal/stream', status: 200, admin: true, workspace: true },
  readUnauthenticatedJournal: { method: 'GET', path: '/journal/unauthenticated', status: 200, admin: true, workspace: false },
  clearUnauthenticatedJournal: { method: 'DELETE', path: '/journal/unauthenticated', status: 200, admin: true, workspace: false },
  streamUnauthenticatedJournal: { method: 'GET', path: '/journal/unauthenticated/stream', status: 200, admin: true, workspace: false },
  listOperations: { method: 'GET', path: '/operations', status: 200, admin: true, workspace: false },
  listFaults: { method: 'GET', path: '/faults', status: 200, admin: true, workspace: true },
  addFault: { method: 'POST', path: '/faults', status: 201, admin: true, workspace: true },
  clearFaults: { method: 'DELETE', path: '/faults', status: 200, admin: true, workspace: true },
  deleteFault: { method: 'DELETE', path: '/faults/{faultId}', status: 200, admin: true, workspace: true },
  changeProviderState: { method: 'POST', path: '/provider-states', status: 200, admin: true, workspace: true, apiKey: true },
  exportPact: { method: 'GET', path: '/pact', status: 200, admin: true, workspace: true },
  readCoverage: { method: 'GET', path: '/coverage', status: 200, admin: true, workspace: true, apiKey: true },
  listCheckpoints: { method: 'GET', path: '/checkpoints', status: 200, admin: true, workspace: true },
  saveCheckpoint: { method: 'POST', path: '/checkpoints', status: 201, admin: true, workspace: true },
  deleteCheckpoint: { method: 'DELETE', path: '/checkpoints/{name}', status: 200, admin: true, workspace: true },
  restoreCheckpoint: { method: 'POST', path: '/checkpoints/{name}/restore', status: 200, admin: true, workspace: true },
  copyWorkspace: { method: 'POST', path: '/copy', status: 200, admin: true, workspace: true },
} as const satisfies { [K in ControlOperationId]: ControlRoute & { status: keyof operations[K]['responses'] } };

type Parameters<K extends ControlOperationId> = operations[K]['parameters'];
type JsonBody<R> = R extends { content: { 'application/json': infer B } } ? B : never;

/** Query parameters of an operation (`never` when it has none). */
export type ControlQuery<K extends ControlOperationId> = NonNullable<Parameters<K>['query']>;
/** Path parameters of an operation (`never` when it has none). */
export type ControlPathParams<K extends ControlOperationId> = NonNullable<Parameters<K>['path']>;
/** The request body of an operation (`never` when it takes none). */
export type ControlBody<K extends ControlOperationId> = JsonBody<NonNullable<operations[K]['requestBody']>>;
/** The body of an operation's success answer. */
export type ControlResult<K extends ControlOperationId> = JsonBody<
  operations[K]['responses'][(typeof CONTROL_ROUTES)[K]['status'] & keyof operations[K]['responses']]
>;
/** The Error body of every failure. */
export type ControlErrorBody = components['schemas']['Error'];

type Field<Name extends string, T, Required extends boolean> =
  [T] extends [never] ? { [P in Name]?: never }
  : Required extends true ? { [P in Name]: T }
  : { [P in Name]?: T };
type BodyRequired<K extends ControlOperationId> = undefined extends operations[K]['requestBody'] ? false : true;

/** What one call of an operation sends: its query, path parameters and body, each only where the operation has one. */
export type ControlInput<K extends ControlOperationId> = Field<'query', ControlQuery<K>, false> &
  Field<'path', ControlPathParams<K>, true> &
  Field<'body', ControlBody<K>, BodyRequired<K>>;

/** Whether an operation needs an input at all (a path parameter or a required body). */
export type InputRequired<K extends ControlOperationId> = [ControlPathParams<K>] extends [never] ? BodyRequired<K> : true;

/** The path of a route with its parameters filled in, e.g. `/faults/3`. */
export function routePath(route: ControlRoute, params: Record<string, unknown> = {}): string {
  return route.path.replace(/\{([^}]+)\}/g, (_whole, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`${route.method} ${route.path} needs the path parameter '${name}'.`);
    return encodeURIComponent(String(value));
  });
}
