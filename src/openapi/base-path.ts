/** Where an API is served: the path of its spec's first `servers` URL. */
type Json = Record<string, unknown>;

/**
 * The path of a spec's first `servers` URL, its variables given their
 * defaults: `https://{host}/v1` is `/v1`, `/api/v2/` is `/api/v2`; a spec
 * without servers (or at `/`) is served at the root, `''`. Throws with the
 * reason when the URL cannot be read.
 */
export function basePathOf(document: Json): string {
  const servers = document.servers;
  const first = Array.isArray(servers) ? (servers[0] as Json | undefined) : undefined;
  if (first === undefined) return '';
  if (typeof first.url !== 'string') throw new Error('its first servers entry has no url');
  const variables = (first.variables ?? {}) as Record<string, { default?: unknown } | undefined>;
  const url = first.url.replace(/\{([^}]*)\}/g, (whole, name: string) => {
    const value = variables[name]?.default;
    if (typeof value !== 'string') throw new Error(`its servers url ${first.url} uses {${name}}, which has no default`);
    return value;
  });
  let path: string;
  try {
    path = /^[a-z][a-z0-9+.-]*:/i.test(url) ? new URL(url).pathname : new URL(url, 'http://relative.invalid/').pathname;
  } catch {
    throw new Error(`its servers url ${url} is not a URL`);
  }
  return path.replace(/\/+$/, '');
}
