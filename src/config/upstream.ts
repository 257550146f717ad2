import { ConfigError } from './error.js';

/** The base address of a deployment: an http(s) URL whose path ends in `/v1`, without a trailing slash; undefined when it is not one. */
function baseAddress(text: string): string | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return undefined;
  }
  const base = `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
  const plain = !url.search && !url.hash && !url.username && !url.password;
  return ['http:', 'https:'].includes(url.protocol) && base.endsWith('/v1') && plain ? base : undefined;
}

/**
 * Proxy mode's upstream and key, checked at start: `--mode proxy` needs an
 * upstream, an upstream must be a base address ending in `/v1` (a mistyped
 * one would otherwise show only as 404s from the deployment), and a key is
 * only meaningful with an upstream. `describe` names an option as messages do.
 */
export function upstreamOptions(
  rawUpstream: string,
  rawKey: string,
  mode: string,
  describe: (name: string) => string,
): { upstream?: string; upstreamKey?: string } {
  const text = rawUpstream.trim();
  const key = rawKey.trim();
  if (!text) {
    if (mode === 'proxy') throw new ConfigError(`${describe('mode')} proxy needs ${describe('upstream')}: the base address of a deployment, ending in /v1`);
    if (key) throw new ConfigError(`${describe('upstream-key')} needs ${describe('upstream')}`);
    return {};
  }
  const upstream = baseAddress(text);
  if (!upstream)
    throw new ConfigError(
      `${describe('upstream')} must be an http(s) address ending in /v1, without query or credentials, such as https://staging.example.com/v1; got '${rawUpstream}'`,
    );
  // A bearer token's characters (RFC 6750 b64token): anything else could not be sent as one.
  if (key && !/^[A-Za-z0-9\-._~+/]+=*$/.test(key))
    throw new ConfigError(`${describe('upstream-key')} must be a bearer token (letters, digits, -._~+/ and trailing =)`);
  return { upstream, ...(key ? { upstreamKey: key } : {}) };
}
