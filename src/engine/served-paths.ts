import { apiFinder } from '../v1/match.js';

/** The root paths the engine answers beside its APIs and `/__sandbox`: the probes and the metrics (spec/sandbox-control.yaml). */
const ROOT_PATHS = new Set(['/livez', '/readyz', '/metrics']);

/** Whether `path` is `base` or under it; the case of `base`'s letters is not matched, as Express matches a mount path. */
const under = (path: string, base: string): boolean => {
  if (base === '') return true;
  const head = path.slice(0, base.length).toLowerCase();
  return head === base.toLowerCase() && (path.length === base.length || path[base.length] === '/');
};

const pathOf = (url: string): string => {
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
};

/** Whether the control plane owns a request target: `/__sandbox` and below, and the probes. */
export const controlOwns = (url: string): boolean => {
  const path = pathOf(url);
  return under(path, '/__sandbox') || ROOT_PATHS.has(path);
};

/**
 * Whether the engine serves a request target: its APIs' paths (`/v1` and
 * below unless told), `/__sandbox` and below, and the probes. A way in that
 * shares its server with other routes (the middleware, MSW) leaves every
 * other request to them, its body unread.
 */
export function servesPath(url: string, bases: readonly string[] = ['/v1']): boolean {
  const path = pathOf(url);
  return bases.some((base) => under(path, base)) || controlOwns(url);
}

/** Which API a target is for, what an unknown path's 404 says is served, and which targets are the engine's. */
export function routing<T extends { base: string }>(apis: readonly T[]) {
  const bases = apis.map((api) => api.base);
  const servedUnder =
    bases.length === 1 && bases[0] === '/v1' ?
      'The Pet Store interface is served under /v1.'
    : `The APIs are served under ${bases.map((b) => b || '/').join(', ')}.`;
  return { apiOf: apiFinder(apis, controlOwns), servedUnder, serves: (url: string) => servesPath(url, bases) };
}
