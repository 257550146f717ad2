import { parseQuery } from '../kernel/query-string.js';
import { allowByPath, type Route } from './routes.js';

/** The request a route serves: its path parameters (decoded) and query (parsed). */
export interface Target {
  route: Route;
  params: Record<string, string>;
  query: Record<string, unknown>;
}

/**
 * A /v1 request no operation takes: its path has other methods (`allow`,
 * for a 405), is in the store area (501), or names nothing (404).
 */
export interface Miss {
  route: undefined;
  /** The path as the client sent it (before `?`), for messages. */
  path: string;
  /** `/v1` as sent, and the rest of the path, an undecodable segment's `%` escaped (as Express's router shows it). */
  base: string;
  rest: string;
  allow: string | undefined;
  store: boolean;
}

/** A request target's path (up to `?` or `#`), and its query string without the `?`. */
export function splitUrl(url: string): { path: string; query: string } {
  const hash = url.indexOf('#');
  const target = hash === -1 ? url : url.slice(0, hash);
  const q = target.indexOf('?');
  return q === -1 ? { path: target, query: '' } : { path: target.slice(0, q), query: target.slice(q + 1) };
}

/** A path segment, percent-decoded; as it is when its encoding does not decode (then it names nothing). */
export function decodeSegment(part: string): string {
  if (!part.includes('%')) return part;
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

/**
 * Whether a request target's path is `/v1` or under it, as Express mounts
 * it (case-insensitive, at a segment's end): `/v1`, `/V1/pets`, `/v1?x`.
 * Read by character codes: it runs on every request.
 */
export function underV1(target: string): boolean {
  if (target.charCodeAt(0) !== 47 || (target.charCodeAt(1) | 0x20) !== 118 || target.charCodeAt(2) !== 49) return false;
  const next = target.charCodeAt(3);
  // NaN past the end: `/v1` itself. 47 `/`, 63 `?`, 35 `#`.
  return Number.isNaN(next) || next === 47 || next === 63 || next === 35;
}

/**
 * Which API of those served (by base path) a request target is for: the
 * longest base it is under, as Express mounts one (case-insensitive, at a
 * segment's end); none for a target `reserved` keeps (the control plane's,
 * even under an API served at the root). The Pet Store alone at `/v1` (the
 * default) is found by a test of four characters: it runs on every request.
 */
export function apiFinder<T extends { base: string }>(apis: readonly T[], reserved: (url: string) => boolean): (url: string) => T | undefined {
  const [only] = apis;
  if (apis.length === 1 && only?.base === '/v1') return (url) => (underV1(url) ? only : undefined);
  const longestFirst = [...apis].sort((a, b) => b.base.length - a.base.length);
  return (url) => {
    const path = splitUrl(url).path;
    for (const api of longestFirst) {
      const { base } = api;
      const head = path.slice(0, base.length).toLowerCase();
      if (head !== base.toLowerCase() || (path.length > base.length && path[base.length] !== '/')) continue;
      return base === '' && reserved(url) ? undefined : api;
    }
    return undefined;
  };
}

/** A query string's parameters: none to parse when there is none (a create, most reads), a fresh object each time (validation fills defaults in). */
const queryOf = (query: string): Record<string, string | string[]> => (query === '' ? Object.create(null) : parseQuery(query));

type Segment = string | { param: string };

function matchSegments(segments: readonly Segment[], parts: readonly string[]): Record<string, string> | undefined {
  const params: Record<string, string> = {};
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i] as Segment;
    const part = parts[i] as string;
    if (typeof segment === 'string') {
      if (segment !== part) return undefined;
    } else if (part === '') return undefined;
    else params[segment.param] = decodeSegment(part);
  }
  return params;
}

/** A segment whose percent-encoding does not decode is shown with its `%` escaped, as Express's router keeps it. */
const shown = (rest: string): string =>
  rest.includes('%') ?
    rest
      .split('/')
      .map((part) => (part.includes('%') && decodeSegment(part) === part ? part.replaceAll('%', '%25') : part))
      .join('/')
  : rest;

/**
 * The engine's routing of a /v1 request from its method and target, as
 * Express's non-strict, case-sensitive router under a case-insensitive
 * `/v1` mount routes it: exact paths, one trailing slash allowed, path
 * parameters percent-decoded (an undecodable one kept literal), HEAD served
 * as GET. Paths without parameters are found by one lookup: `/v1/pets`, the
 * hottest of all.
 */
export function createV1Matcher(
  routes: readonly Route[],
  /** The length of the base path the API is served under (`/v1`). */
  baseLength = 3,
  /** Whether `/store` is the interface's store area, not shown (the Pet Store 1.0.0's): a 501 there, not a 404. */
  storeArea = true,
): (method: string, path: string, query: string) => Target | Miss {
  const compiled = routes.map((route) => ({
    route,
    method: route.op.method.toUpperCase(),
    segments: route.op.routePath.split('/').map((s): Segment => (s.startsWith(':') ? { param: s.slice(1) } : s)),
  }));
  const isExact = (c: (typeof compiled)[number]) => c.segments.every((s) => typeof s === 'string');
  const exact = new Map(compiled.filter(isExact).map((c) => [`${c.method} ${c.segments.join('/')}`, c.route]));
  // Routes with a parameter, by method: a GET by id scans only the GETs that have one, not every operation.
  const withParams = new Map<string, typeof compiled>();
  for (const c of compiled) if (!isExact(c)) withParams.set(c.method, [...(withParams.get(c.method) ?? []), c]);
  const allows = [...allowByPath(routes)].map(([routePath, allow]) => ({
    segments: routePath.split('/').map((s): Segment => (s.startsWith(':') ? { param: s } : s)),
    allow,
  }));

  return (method, path, query) => {
    let rest = path.slice(baseLength);
    if (rest.length > 1 && rest.endsWith('/')) rest = rest.slice(0, -1);
    const asked = method === 'HEAD' ? 'GET' : method;
    const route = exact.get(`${asked} ${rest}`);
    if (route) return { route, params: {}, query: queryOf(query) };
    const parts = rest.split('/');
    const candidates = withParams.get(asked) ?? [];
    for (let i = 0; i < candidates.length; i++) {
      const { route, segments } = candidates[i] as (typeof compiled)[number];
      if (segments.length !== parts.length) continue;
      const params = matchSegments(segments, parts);
      if (params) return { route, params, query: queryOf(query) };
    }
    const allow = allows.find(({ segments }) => segments.length === parts.length && matchSegments(segments, parts))?.allow;
    const store = storeArea && (rest === '/store' || rest.startsWith('/store/'));
    return { route: undefined, path, base: path.slice(0, baseLength), rest: shown(path.slice(baseLength) || '/'), allow, store };
  };
}
