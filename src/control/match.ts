import { ApiError } from '../kernel/errors.js';
import { echo } from '../kernel/echo.js';
import { CONTROL_BASE, CONTROL_ROUTES, type ControlOperationId, type ControlRoute } from './routes.js';

/** A request's operation, its path parameters still as sent (decoded once the credential check has passed). */
export interface MatchedRoute {
  operationId: ControlOperationId;
  route: ControlRoute;
  rawParams: Record<string, string>;
}

interface CompiledRoute {
  operationId: ControlOperationId;
  route: ControlRoute;
  pattern: RegExp;
  names: string[];
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A route's path as a pattern matched as Express matches it: case-insensitive, a trailing slash allowed, a parameter one segment. */
function compile(operationId: ControlOperationId): CompiledRoute {
  const route: ControlRoute = CONTROL_ROUTES[operationId];
  const names: string[] = [];
  const source = route.path
    .split('/')
    .map((segment) => {
      const name = /^\{(.+)\}$/.exec(segment)?.[1];
      if (name === undefined) return escape(segment);
      names.push(name);
      return '([^/]+)';
    })
    .join('/');
  return { operationId, route, pattern: new RegExp(`^${source}/?$`, 'i'), names };
}

/** A matcher of `method` and path over some routes of the table; HEAD is answered as GET, as Express does. */
function matcherOf(routes: CompiledRoute[]): (method: string, path: string) => MatchedRoute | undefined {
  return (method, path) => {
    const asked = method === 'HEAD' ? 'GET' : method;
    for (const { operationId, route, pattern, names } of routes) {
      if (route.method !== asked) continue;
      const found = pattern.exec(path);
      if (!found) continue;
      const rawParams: Record<string, string> = {};
      names.forEach((name, i) => (rawParams[name] = found[i + 1] as string));
      return { operationId, route, rawParams };
    }
    return undefined;
  };
}

const compiled = (Object.keys(CONTROL_ROUTES) as ControlOperationId[]).map(compile);
/** Under `/__sandbox`: the path after it (`/mode`). */
export const matchUnder = matcherOf(compiled.filter((r) => r.route.root !== true));
/** At the root: the probes and the metrics, by their exact paths. */
export const matchRoot = matcherOf(compiled.filter((r) => r.route.root === true));

const UNDER = new RegExp(`^${escape(CONTROL_BASE)}(?=/|$)`, 'i');

/** The path after `/__sandbox` (`/` for the base itself), or undefined when `path` is not under it. */
export function pathUnder(path: string): string | undefined {
  if (!UNDER.test(path)) return undefined;
  return path.slice(CONTROL_BASE.length) || '/';
}

/** Path parameters percent-decoded; one that does not decode is the client's fault (400), as Express answers it. */
export function decodeParams(raw: Record<string, string>): Record<string, string> {
  const params: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    try {
      params[name] = decodeURIComponent(value);
    } catch {
      throw ApiError.of('invalid_request', `Malformed request: Failed to decode param ${echo(value)}.`);
    }
  }
  return params;
}

/** A query string's parameters as Express's simple parser gives them: a repeated name as an array. */
export function queryOf(search: string): Record<string, string | string[]> {
  // No prototype, as the simple parser gives it: a parameter named `__proto__` stays a parameter.
  const query = Object.create(null) as Record<string, string | string[]>;
  for (const [name, value] of new URLSearchParams(search)) {
    const had = query[name];
    query[name] =
      had === undefined ? value
      : Array.isArray(had) ? [...had, value]
      : [had, value];
  }
  return query;
}
