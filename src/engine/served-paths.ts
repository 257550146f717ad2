import { underV1 } from '../v1/match.js';

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
 * Which API of those served (by base path) a request target is for: the
 * longest base it is under; none for the control plane's paths, even
 * under an API served at the root. The Pet Store alone at `/v1` (the
 * default) is found by a test of four characters: it runs on every request.
 */
export function apiFinder<T extends { base: string }>(apis: readonly T[]): (url: string) => T | undefined {
  const [only] = apis;
  if (apis.length === 1 && only?.base === '/v1') return (url) => (underV1(url) ? only : undefined);
  const longestFirst = [...apis].sort((a, b) => b.base.length - a.base.length);
  return (url) => {
    const path = pathOf(url);
    for (const api of longestFirst) if (under(path, api.base)) return api.base === '' && controlOwns(url) ? undefined : api;
    return undefined;
  };
}

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
  return { apiOf: apiFinder(apis), servedUnder, serves: (url: string) => servesPath(url, bases) };
}
