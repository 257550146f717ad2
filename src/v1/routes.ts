import type { OperationSpec, Spec } from '../openapi/spec.js';
import type { RequestValidator, Validators } from '../openapi/validate.js';

/**
 * Everything one operation needs at request time, built once at start-up
 * (fastify's `lib/context.js`): its validator and the headers the spec pins.
 */
export interface Route {
  op: OperationSpec;
  validator: RequestValidator;
  /** Headers every documented response of the operation carries, set before anything can fail. */
  pinned: [string, string][];
  /** Headers the spec pins for one status only. */
  fixedByStatus: Map<number, [string, string][]>;
  /** Whether the operation takes a body (read by the pipeline itself). */
  readsBody: boolean;
  /** What one of the path's items is called in a 404's message: `pet` for `/pets/{petId}`. */
  noun: string;
}

/** The singular of the collection before an operation's last path parameter (`/store/orders/{orderId}`: `order`); `item` when there is none. */
export function nounOf(path: string): string {
  const segments = path.split('/');
  const last = segments.findLastIndex((segment) => segment.startsWith('{'));
  const plural = last > 0 ? segments[last - 1] : undefined;
  if (!plural || plural.startsWith('{')) return 'item';
  if (plural.endsWith('ies')) return `${plural.slice(0, -3)}y`;
  if (/(ss|x|ch|sh)es$/.test(plural)) return plural.slice(0, -2);
  return plural.endsWith('s') && !plural.endsWith('ss') ? plural.slice(0, -1) : plural;
}

/** Headers the spec pins in every documented response of an operation (Deprecation, Sunset, Link on getPet). */
function alwaysHeaders(op: OperationSpec): [string, string][] {
  const responses = [...op.responses.values()];
  const first = responses[0]?.fixedHeaders ?? {};
  return Object.entries(first).filter(([name, value]) => responses.every((r) => r.fixedHeaders[name] === value));
}

/** The routes of every operation of the spec, in the spec's order. */
export function compileRoutes(spec: Spec, validators: Validators, headersOf?: (op: OperationSpec) => Record<string, string>): Route[] {
  return [...spec.operations.values()].map((op) => ({
    op,
    validator: validators.request(op),
    pinned: [...alwaysHeaders(op), ...Object.entries(headersOf?.(op) ?? {})],
    fixedByStatus: new Map([...op.responses].map(([status, r]) => [status, Object.entries(r.fixedHeaders)])),
    readsBody: op.requestBody !== undefined,
    noun: nounOf(op.path),
  }));
}

/** For each path (Express syntax), the `Allow` header of a 405: its methods, HEAD with GET, and OPTIONS. */
export function allowByPath(routes: readonly Route[]): Map<string, string> {
  const methods = new Map<string, string[]>();
  for (const { op } of routes) methods.set(op.routePath, [...(methods.get(op.routePath) ?? []), op.method.toUpperCase()]);
  return new Map([...methods].map(([path, list]) => [path, [...list, ...(list.includes('GET') ? ['HEAD'] : []), 'OPTIONS'].join(', ')]));
}
