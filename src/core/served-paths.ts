/** The root paths the engine answers beside `/v1` and `/__sandbox`: the probes and the metrics (spec/sandbox-control.yaml). */
const ROOT_PATHS = new Set(['/livez', '/readyz', '/metrics']);

const under = (path: string, base: string): boolean => path === base || path.startsWith(`${base}/`);

/**
 * Whether the engine serves a request target: `/v1` and below, `/__sandbox`
 * and below, and the probes. A way in that shares its server with other
 * routes (the middleware) leaves every other request to them, its body unread.
 */
export function servesPath(url: string): boolean {
  const q = url.indexOf('?');
  const path = q === -1 ? url : url.slice(0, q);
  return under(path, '/v1') || under(path, '/__sandbox') || ROOT_PATHS.has(path);
}
