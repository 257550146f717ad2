/**
 * Which names a request's `Host` may carry (`--allowed-hosts`): the defence
 * against DNS rebinding, where a web page's own name is made to resolve to
 * 127.0.0.1 and its script then calls the sandbox with the documented
 * secrets. Such a request carries the page's name as its `Host`; a request
 * meant for the sandbox carries a loopback name, an address, or a name the
 * operator listed. Pure (no Node module): the engine runs in a browser too.
 */
import { ConfigError } from './error.js';

export interface AllowedHostsConfig {
  /**
   * Host names a request's `Host` may carry beyond loopback names, IP
   * addresses and `--host`: exact names, `.example.com` for that name and
   * every name under it, or `*` for any. Default none.
   */
  readonly allowedHosts: readonly string[];
}

export const ALLOWED_HOSTS_OPTIONS = {
  'allowed-hosts': {
    env: 'PETSTORE_ALLOWED_HOSTS',
    default: '',
    help: 'host names requests may be sent to beyond localhost and IP addresses (comma-separated; .example.com for a domain, * for any)',
  },
} as const;

/** An admin token shorter than this is guessed within reach of a network's clients: refused off loopback like the documented one. */
export const MIN_ADMIN_TOKEN_LENGTH = 16;

const NAME = /^\.?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*\.?$/;

/** The allowed hosts of `--allowed-hosts`, lower-case; a value that is no host name is refused by position, so a typo never opens nothing silently. */
export function allowedHostsConfigOf(
  get: (name: 'allowed-hosts') => string,
  describe: (name: string) => string = () => '--allowed-hosts (or PETSTORE_ALLOWED_HOSTS)',
): AllowedHostsConfig {
  const names = get('allowed-hosts')
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter(Boolean);
  names.forEach((name, i) => {
    if (name !== '*' && !NAME.test(name))
      throw new ConfigError(`${describe('allowed-hosts')}: entry ${i + 1} is not a host name (example.com, .example.com or *)`);
  });
  return { allowedHosts: Object.freeze(names) };
}

const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/;

/**
 * The host name of a `Host` header's value, lower-case and without its
 * port, as a URL parser reads it (so `0x7f.1` is the address 127.0.0.1); an
 * IPv6 address keeps its brackets. Undefined for a value no URL could carry.
 */
export function hostNameOf(host: string): string | undefined {
  if (host === '' || /[\s/?#@\\]/.test(host)) return undefined;
  try {
    return new URL(`http://${host}`).hostname;
  } catch {
    return undefined;
  }
}

/** Whether a parsed host name is an IP address: no page's name is rebound to one, so any is allowed. */
export const isAddress = (name: string): boolean => name.startsWith('[') || IPV4.test(name);

/** `localhost` and names under it (RFC 6761: they resolve to loopback on their own). */
const isLocalhostName = (name: string): boolean => name === 'localhost' || name.endsWith('.localhost');

/**
 * Whether a request whose `Host` has the host name `name` (from hostNameOf)
 * may be answered: an address, a localhost name, the host the sandbox was
 * told to listen on, or a name of `--allowed-hosts`.
 */
export function hostAllowed(name: string, listenHost: string, allowed: readonly string[]): boolean {
  const bare = name.endsWith('.') ? name.slice(0, -1) : name;
  if (isAddress(bare) || isLocalhostName(bare) || bare === listenHost.toLowerCase()) return true;
  return allowed.some((entry) => entry === '*' || entry === bare || (entry.startsWith('.') && (bare === entry.slice(1) || bare.endsWith(entry))));
}
