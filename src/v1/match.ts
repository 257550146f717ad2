import type { IncomingMessage } from 'node:http';
import { parse as parseQuery } from 'node:querystring';
import { hasBody } from '../http/has-body.js';
import type { Route } from './routes.js';
import type { Target } from './pipeline-types.js';

/** A URL Express would parse the slow way (parseurl's fast path refuses these characters); left to Express. */
const UNUSUAL_URL = /[\t\n\f\r #\u00a0\ufeff]/;

/** A request target's path, and its query string with the `?` (or ''). */
export function splitUrl(url: string): { path: string; search: string } {
  const q = url.indexOf('?');
  return q === -1 ? { path: url, search: '' } : { path: url.slice(0, q), search: url.slice(q) };
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
 * The fast path's whole decision: the operation Express would route a
 * request to, found without Express, for the plainest requests only: an
 * operation's method and exact path under `/v1`, nothing unusual in the URL,
 * no body for an operation without one. Anything else (a trailing or double
 * slash, HEAD, an unknown path) is undefined, and Express's to route. The
 * request itself is not touched.
 */
export function createMatcher(routes: readonly Route[]): (req: IncomingMessage) => Target | undefined {
  const compiled = routes.map((route) => ({
    route,
    method: route.op.method.toUpperCase(),
    segments: `/v1${route.op.routePath}`.split('/').map((s) => (s.startsWith(':') ? { param: s.slice(1) } : s)),
  }));
  // Paths without parameters are found by one lookup: `/v1/pets`, the hottest of all.
  const exact = new Map(compiled.filter((c) => c.segments.every((s) => typeof s === 'string')).map((c) => [`${c.method} ${c.segments.join('/')}`, c.route]));
  return (req) => {
    const url = req.url ?? '';
    if (UNUSUAL_URL.test(url)) return undefined;
    const { path, search } = splitUrl(url);
    const route = exact.get(`${req.method} ${path}`);
    if (route) return !route.readsBody && hasBody(req) ? undefined : { route, params: {}, query: parseQuery(search.slice(1)) };
    const parts = path.split('/');
    for (const { route, method, segments } of compiled) {
      if (method !== req.method || segments.length !== parts.length) continue;
      const params = matchSegments(segments, parts);
      if (!params) continue;
      if (!route.readsBody && hasBody(req)) return undefined;
      return { route, params, query: parseQuery(search.slice(1)) };
    }
    return undefined;
  };
}

function matchSegments(segments: (string | { param: string })[], parts: string[]): Record<string, string> | undefined {
  const params: Record<string, string> = {};
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i] as string | { param: string };
    const part = parts[i] as string;
    if (typeof segment === 'string') {
      if (segment !== part) return undefined;
    } else if (part === '') return undefined;
    else params[segment.param] = decodeSegment(part);
  }
  return params;
}
