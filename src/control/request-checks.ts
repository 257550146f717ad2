import type { EngineHeaders } from '../kernel/types.js';
import { ApiError } from '../kernel/errors.js';
import { echo } from '../kernel/echo.js';
import type { Spec } from '../openapi/spec.js';
import { createValidators, type Issue, type RequestValidator } from '../openapi/validate.js';
import { CONTROL_BASE, CONTROL_ROUTES, type ControlOperationId, type ControlRoute } from './routes.js';

/** A control request in parts: its headers (lower-case names), query, path parameters and body. */
export interface ControlRequestParts {
  headers: EngineHeaders;
  query: Record<string, unknown>;
  params: Record<string, string>;
  /** Undefined when no body was sent. */
  body: unknown;
}

/** A control request that matches its operation in spec/sandbox-control.yaml: query coerced to its types. */
export interface CheckedControlRequest {
  key: string | undefined;
  /** `X-Sandbox-Target-Key`: the workspace a copy goes to. */
  target: string | undefined;
  /** `Last-Event-ID`: where a journal stream resumes. */
  lastEventId: string | undefined;
  query: Record<string, unknown>;
  path: Record<string, unknown>;
  body: unknown;
}

const SANDBOX_KEY = 'X-Sandbox-Key';
const TARGET_KEY = 'X-Sandbox-Target-Key';
const LAST_EVENT_ID = 'Last-Event-ID';
const RECORD = /^pets\/(\d+)(?:\/(.*))?$/;

/**
 * Issues as one sentence, in the control plane's words: body fields by
 * their JSON name in quotes (`"count"`), and the pets of a fixture set as
 * records by index (`Record 2 field 'name'`), as the fixture loader names
 * them: nothing of a refused set is loaded.
 */
export function formatControlIssues(issues: readonly Issue[]): string {
  const sentences = issues.map((i) => {
    if (i.in === 'header') return `Header ${echo(i.name)} ${i.message}.`;
    if (i.in === 'query') return `Query parameter ${echo(i.name)} ${i.message}.`;
    if (i.in === 'path') return `Path parameter ${echo(i.name)} ${i.message}.`;
    if (i.name === '') return i.message === 'must be object' ? 'The request body must be a JSON object.' : `The request body ${i.message}.`;
    const record = RECORD.exec(i.name);
    if (record) return `Record ${record[1]}${record[2] ? ` field ${echo(record[2].replace(/\//g, '.'))}` : ''} ${i.message}.`;
    return `${echo(i.name.replace(/\//g, '.'), '"')} ${i.message}.`;
  });
  const loadsNothing = issues.some((i) => i.in === 'body' && RECORD.test(i.name));
  return `${loadsNothing ? 'Nothing was loaded. ' : ''}${sentences.join(' ')}`;
}

/**
 * Fails start-up when the route table and the spec disagree on an
 * operation's method, path, success status, credentials or workspace header.
 */
export function checkRoutes(spec: Spec): void {
  const problems: string[] = [];
  const routes: Record<string, ControlRoute> = CONTROL_ROUTES;
  for (const [id, route] of Object.entries(routes)) {
    const op = spec.operations.get(id);
    if (!op) {
      problems.push(`${id} is not an operation of the spec`);
      continue;
    }
    const item = (spec.document.paths as Record<string, Record<string, { security?: Record<string, unknown>[] }> & { servers?: { url: string }[] }>)[op.path];
    const raw = (item ?? {})[op.method];
    const success = [...op.responses.keys()].filter((s) => s >= 200 && s < 300);
    const expected = {
      method: op.method.toUpperCase(),
      path: op.path,
      status: success.length === 1 ? success[0] : success.join('|'),
      // An operation without its own `security` has the document's: the admin token.
      admin: raw?.security === undefined || raw.security.some((s) => 'adminToken' in s),
      workspace: op.parameters.some((p) => p.in === 'header' && p.name === SANDBOX_KEY),
      apiKey: (raw?.security ?? []).some((s) => 'apiKey' in s),
      root: (item?.servers ?? []).some((s) => !s.url.endsWith(CONTROL_BASE)),
      metricsToken: (raw?.security ?? []).some((s) => 'metricsToken' in s),
    };
    for (const [field, value] of Object.entries(expected)) {
      const actual = field === 'apiKey' || field === 'root' || field === 'metricsToken' ? (route[field] ?? false) : route[field as keyof ControlRoute];
      if (actual !== value) problems.push(`${id}: the table has ${field} ${String(actual)}, the spec ${String(value)}`);
    }
  }
  for (const id of spec.operations.keys()) if (!(id in routes)) problems.push(`${id} has no route`);
  if (problems.length > 0) throw new Error(`The control plane's routes (src/control/routes.ts) and ${spec.file} differ:\n- ${problems.join('\n- ')}`);
}

/**
 * Checks control requests against spec/sandbox-control.yaml as `/v1`
 * requests are checked against the interface: header, query and body
 * issues together as one 400; a path parameter that cannot name anything
 * is a 404, as a malformed id is on `/v1`. Compiled per operation on its
 * first request, so start-up pays nothing for it. `related` are the specs it
 * refers to (the interface, for its Pet schema).
 */
export function createControlChecks(
  spec: Spec,
  related: readonly Spec[],
): (operationId: ControlOperationId, req: ControlRequestParts) => CheckedControlRequest {
  let validators: ReturnType<typeof createValidators> | undefined;
  const compiled = new Map<string, RequestValidator>();
  const validatorOf = (operationId: string) => {
    let v = compiled.get(operationId);
    if (!v) {
      validators ??= createValidators(spec, related);
      const op = spec.operations.get(operationId);
      if (!op) throw new Error(`The spec ${spec.file} has no operation ${operationId}`);
      compiled.set(operationId, (v = validators.request(op)));
    }
    return v;
  };
  return (operationId, req) => {
    const v = validatorOf(operationId);
    const path = v.path(req.params);
    if (!path.ok) throw ApiError.of('not_found', `Nothing found at ${CONTROL_ROUTES[operationId].path}: ${formatControlIssues(path.issues)}`);
    const header = v.header(req.headers);
    const query = v.query(req.query);
    const body = v.body(req.body);
    const issues = [header, query, body].flatMap((c) => (c.ok ? [] : c.issues));
    if (issues.length > 0) throw ApiError.of('invalid_request', formatControlIssues(issues));
    const key = header.ok ? header.value[SANDBOX_KEY] : undefined;
    const target = header.ok ? header.value[TARGET_KEY] : undefined;
    const lastEventId = header.ok ? header.value[LAST_EVENT_ID] : undefined;
    return {
      key: typeof key === 'string' ? key : undefined,
      target: typeof target === 'string' ? target : undefined,
      lastEventId: typeof lastEventId === 'string' ? lastEventId : undefined,
      query: query.ok ? query.value : {},
      path: path.value,
      body: req.body,
    };
  };
}
