import { underV1 } from '../v1/match.js';

/** The root paths the engine answers beside `/v1` and `/__sandbox`: the probes and the metrics (spec/sandbox-control.yaml). */
const ROOT_PATHS = new Set(['/livez', '/readyz', '/metrics']);

/** Whether `path` is `base` or under it; the case of `base`'s letters is not matched, as Express matches a mount path. */
const under = (path: string, base: string): boolean => {
  const head = path.slice(0, base.length).toLowerCase();
  return head === base && (path.length === base.length || path[base.length] === '/');
};

const pathOf = (url: string): string => {
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
};

/**
 * Whether the engine serves a request target: `/v1` and below, `/__sandbox`
 * and below, and the probes. A way in that shares its server with other
 * routes (the middleware) leaves every other request to them, its body unread.
 */
export function servesPath(url: string): boolean {
  const path = pathOf(url);
  return underV1(path) || under(path, '/__sandbox') || ROOT_PATHS.has(path);
}
