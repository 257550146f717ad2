import { loadConfig, type Config, type Mode } from '../config/load.js';

/** What a sandbox is made with; everything has the command line's default (docs/library.md). */
export interface CreateSandboxOptions {
  /** Faker seed of the seeded pets (and of dynamic mode). Default 1. */
  seed?: number;
  /** Pets a new workspace is seeded with. Default 50. */
  count?: number;
  /** `'memory'` (the default: nothing written to disk), a lowdb data file's path, or a `postgres://` URL. */
  store?: string;
  /**
   * How /v1 answers: from the store (default), Prism from the spec's
   * examples or schemas, or `proxy`: passed on to `options.upstream` and
   * checked on the way (Node only).
   */
  mode?: Mode;
  /** Accepted API keys (bearer tokens). Default `['sandbox-key']`. */
  apiKeys?: readonly string[];
  /** The control plane's token. Default `sandbox-admin`. */
  adminToken?: string;
  /** The port `listen()` opens (0 for any free one); when given, `createSandbox` listens before it resolves. */
  port?: number;
  /** Where `listen()` listens. Default 127.0.0.1. */
  host?: string;
  /**
   * Host names a request may be sent to beyond localhost, IP addresses and
   * `host` (`.example.com` for a domain, `'*'` for any): a request over a
   * network to any other name is refused (DNS rebinding). Default none.
   */
  allowedHosts?: readonly string[];
  /** Any other option of the command line by its flag's name, e.g. `{ 'journal-size': 500, 'open-keys': true }`. */
  options?: Readonly<Record<string, string | number | boolean>>;
}

/** An option as the command line's flag; `true` as a bare switch (`--open-keys` takes no value), `false` as its absence. */
const flag = (name: string, value: string | number | boolean | readonly string[] | undefined): string[] => {
  if (value === undefined || value === false) return [];
  if (value === true) return [`--${name}`];
  return [`--${name}=${Array.isArray(value) ? value.join(',') : String(value)}`];
};

/**
 * The configuration of a library sandbox: its options as the command line
 * would take them, so that every value is checked as it is there (a bad one
 * is a ConfigError naming the option). Environment variables are not read: a
 * test suite's sandbox is what its code says.
 */
export function configOf(options: CreateSandboxOptions = {}): Config {
  const argv = [
    ...flag('store', options.store ?? 'memory'),
    ...flag('seed', options.seed),
    ...flag('count', options.count),
    ...flag('mode', options.mode),
    ...flag('api-keys', options.apiKeys),
    ...flag('admin-token', options.adminToken),
    ...flag('port', options.port ?? 0),
    ...flag('host', options.host),
    ...flag('allowed-hosts', options.allowedHosts),
    // A library logs nothing unless asked: its host has a logger of its own.
    ...flag('log-level', options.options?.['log-level'] === undefined ? 'silent' : undefined),
    ...Object.entries(options.options ?? {}).flatMap(([name, value]) => flag(name, value)),
  ];
  return loadConfig(argv, {}).config;
}
