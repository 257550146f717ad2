import { isIP } from 'node:net';
import { ConfigError } from './error.js';
import { DEFAULT_ADMIN_TOKEN, DEFAULT_API_KEY, type Config } from './load.js';
import { MIN_ADMIN_TOKEN_LENGTH } from './allowed-hosts.js';

/** Whether `host` only reaches this machine: `localhost`, 127.0.0.0/8 or ::1 (an IPv4-mapped 127.x too). */
export function isLoopbackHost(host: string): boolean {
  const h = host.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  if (h === 'localhost') return true;
  if (isIP(h) === 4) return h.startsWith('127.');
  if (isIP(h) !== 6) return false;
  // The URL parser writes an IPv6 address one way: ::1, and ::ffff:7fxx:... for a mapped 127.x.
  const canonical = new URL(`http://[${h}]`).hostname;
  return canonical === '[::1]' || /^\[::ffff:7f[0-9a-f]{2}:/.test(canonical);
}

/**
 * Refuses to serve beyond this machine with a secret everyone knows:
 * docs/configuration.md documents `sandbox-admin` and `sandbox-key`, so anyone on the network
 * could wipe the data or read it; an admin token under 16 characters is refused there too. Throws ConfigError (exit 2) saying how to set them.
 */
export function checkExposure(config: Config): void {
  if (isLoopbackHost(config.host)) return;
  const defaults = [
    config.adminToken === DEFAULT_ADMIN_TOKEN &&
      `the admin token is still the documented default '${DEFAULT_ADMIN_TOKEN}' (set it with --admin-token-file <file>, PETSTORE_ADMIN_TOKEN_FILE, PETSTORE_ADMIN_TOKEN or --admin-token)`,
    config.apiKeys.includes(DEFAULT_API_KEY) &&
      `the API keys still include the documented default '${DEFAULT_API_KEY}' (set them with --api-keys-file <file>, PETSTORE_API_KEYS_FILE, PETSTORE_API_KEYS or --api-keys)`,
    config.adminToken !== DEFAULT_ADMIN_TOKEN &&
      config.adminToken.length < MIN_ADMIN_TOKEN_LENGTH &&
      `the admin token is shorter than ${MIN_ADMIN_TOKEN_LENGTH} characters (set a longer one with --admin-token-file <file>, PETSTORE_ADMIN_TOKEN_FILE, PETSTORE_ADMIN_TOKEN or --admin-token)`,
  ].filter((problem): problem is string => typeof problem === 'string');
  if (defaults.length === 0) return;
  throw new ConfigError(`--host ${config.host} serves beyond this machine, but ${defaults.join(', and ')}. A file keeps a secret out of process listings.`);
}

/** What start-up says of the secrets, never showing one: a secret file every user may read, an admin token short enough to guess. */
export function exposureNotices(config: Config): string[] {
  const short =
    config.adminToken !== DEFAULT_ADMIN_TOKEN && config.adminToken.length < MIN_ADMIN_TOKEN_LENGTH ?
      [
        `the admin token is shorter than ${MIN_ADMIN_TOKEN_LENGTH} characters: only this machine is answered (it would be refused with a --host beyond loopback)`,
      ]
    : [];
  return [...config.secretWarnings, ...short];
}
