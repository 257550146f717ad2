import { ConfigError } from './error.js';
import { MODES, type Mode } from './modes.js';
import { upstreamOptions } from './upstream.js';
import { STORE_OPTIONS, storeConfigOf, type StoreConfig } from './store.js';
import { opsConfigOf, OPS_OPTIONS, type OpsConfig } from './ops.js';
import { OPEN_KEY_OPTIONS, openKeysConfigOf, type OpenKeysConfig } from './open-keys.js';
import { adminTokenConfigOf, apiKeysOf, readSecret, type AdminTokenConfig, type ConfigIo } from './secrets.js';
import { ALLOWED_HOSTS_OPTIONS, allowedHostsConfigOf, type AllowedHostsConfig } from './allowed-hosts.js';
import { describerOf, FLAG_NAMING, type Naming } from './naming.js';
import { SPEC_OPTIONS, specsConfigOf, type SpecsConfig } from './specs.js';

export { ConfigError } from './error.js';
export type { ConfigIo } from './secrets.js';
export { FLAG_NAMING, type Naming } from './naming.js';

export { ANSWERING_MODES, MODES, type Mode } from './modes.js';

/** Everything the sandbox can be told, after defaults (the operator's logs, metrics and shutdown in OpsConfig). Frozen. */
export interface Config extends OpsConfig, StoreConfig, OpenKeysConfig, AdminTokenConfig, AllowedHostsConfig, SpecsConfig {
  /** TCP port; 0 picks a free one. Default 4010. */
  readonly port: number;
  /** Interface to listen on. Default 127.0.0.1 (use 0.0.0.0 to share the sandbox). */
  readonly host: string;
  /** Faker seed for the data of a fresh store (and of dynamic mode). Default 1. */
  readonly seed: number;
  /** How many pets a fresh store is seeded with. Default 50. */
  readonly count: number;
  /** Accepted API keys (bearer tokens), given as a value or a file. Default the development key `sandbox-key`. */
  readonly apiKeys: readonly string[];
  /** How /v1 is answered: the stateful store, Prism from the spec's examples or schemas, or a real deployment (proxy). */
  readonly mode: Mode;
  /** Whether `--mode` or PETSTORE_MODE was given: on a shared database, only then does a starting instance set the shared mode. */
  readonly modeGiven: boolean;
  /** The deployment `proxy` mode forwards to: a base address ending in `/v1`, without a trailing slash. Default none. */
  readonly upstream?: string;
  /** The API key `proxy` mode sends upstream instead of the caller's; callers then need one of `apiKeys`. Default none. */
  readonly upstreamKey?: string;
  /** Milliseconds `proxy` mode waits for an upstream answer before a 502. Default 30 s. */
  readonly upstreamTimeoutMs: number;
  /** Origins allowed by CORS on /v1; `*` allows any. */
  readonly corsOrigins: '*' | readonly string[];
  /** Origins allowed by CORS on the control plane. Default none: no web page can drive it. */
  readonly controlCorsOrigins: readonly string[];
  /** Open connections at most (lowered at start to fit the open-file limit). Default 1000. */
  readonly maxConnections: number;
  /** Largest accepted request body, in bytes. Default 102400 (100 KiB). */
  readonly bodyLimit: number;
  /** Accept any well-formed bearer token, each with its own fresh workspace. Default off. */
  readonly openKeys: boolean;
  /** Requests kept in each workspace's journal. Default 200. */
  readonly journalSize: number;
  /** Bytes all journals may hold together; past it the oldest entries go. Default 33554432 (32 MiB). */
  readonly journalMemory: number;
  /** Write-ahead log records after which the log is folded into the data file. Default 20000. */
  readonly compactAfter: number;
  /** Most pets one workspace may hold. Default 1,000,000. */
  readonly quotaPets: number;
  /** Most bytes of pet JSON one workspace may hold. Default 128 MiB. */
  readonly quotaBytes: number;
  /** Most workspaces open at once; idle ones are closed to make room. Default 1000. */
  readonly maxWorkspaces: number;
  /** Milliseconds after which an unused workspace is closed (it reopens on demand). Default 60 s. */
  readonly workspaceIdleMs: number;
  /** Most named checkpoints one workspace may keep. Default 20. */
  readonly checkpointCount: number;
  /** Most bytes the checkpoints of one workspace may take together. Default 256 MiB. */
  readonly checkpointBytes: number;
}

export const DEFAULT_API_KEY = 'sandbox-key';
export const DEFAULT_ADMIN_TOKEN = 'sandbox-admin';

/** Each option: its flag, environment variable and default. */
export const OPTIONS = {
  port: { env: 'PETSTORE_PORT', default: '4010', help: 'TCP port (0 = any free port)' },
  host: { env: 'PETSTORE_HOST', default: '127.0.0.1', help: 'interface to listen on' },
  ...ALLOWED_HOSTS_OPTIONS,
  data: { env: 'PETSTORE_DATA', default: './data/db.json', help: 'lowdb data file' },
  ...SPEC_OPTIONS,
  ...STORE_OPTIONS,
  seed: { env: 'PETSTORE_SEED', default: '1', help: 'faker seed for fresh data' },
  count: { env: 'PETSTORE_COUNT', default: '50', help: 'pets in a fresh store' },
  'api-keys': { env: 'PETSTORE_API_KEYS', default: DEFAULT_API_KEY, help: 'comma-separated accepted API keys' },
  'api-keys-file': { env: 'PETSTORE_API_KEYS_FILE', default: '', help: 'file of API keys (one per line or comma-separated, # comments)' },
  'admin-token': { env: 'PETSTORE_ADMIN_TOKEN', default: DEFAULT_ADMIN_TOKEN, help: 'token of the /__sandbox control plane' },
  'admin-token-file': { env: 'PETSTORE_ADMIN_TOKEN_FILE', default: '', help: 'file holding the admin token' },
  mode: { env: 'PETSTORE_MODE', default: 'stateful', help: 'stateful | example | dynamic | proxy' },
  upstream: { env: 'PETSTORE_UPSTREAM', default: '', help: 'deployment proxy mode forwards to, e.g. https://staging.example.com/v1' },
  'upstream-key': { env: 'PETSTORE_UPSTREAM_KEY', default: '', help: "API key sent upstream instead of the caller's" },
  'upstream-timeout': { env: 'PETSTORE_UPSTREAM_TIMEOUT', default: '30', help: 'seconds to wait for the upstream before a 502' },
  'cors-origins': { env: 'PETSTORE_CORS_ORIGINS', default: '*', help: 'comma-separated allowed origins, or *' },
  'control-cors-origins': { env: 'PETSTORE_CONTROL_CORS_ORIGINS', default: '', help: 'comma-separated origins allowed on /__sandbox' },
  'max-connections': { env: 'PETSTORE_MAX_CONNECTIONS', default: '1000', help: 'open connections at most' },
  'body-limit': { env: 'PETSTORE_BODY_LIMIT', default: '102400', help: 'largest request body in bytes' },
  'open-keys': { env: 'PETSTORE_OPEN_KEYS', default: 'false', help: 'any well-formed bearer token is accepted, each with its own workspace', flag: true },
  'journal-size': { env: 'PETSTORE_JOURNAL_SIZE', default: '200', help: 'requests kept per workspace journal' },
  'journal-memory': { env: 'PETSTORE_JOURNAL_MEMORY', default: '33554432', help: 'bytes all journals hold together (oldest entries go first)' },
  'compact-after': {
    env: 'PETSTORE_COMPACT_AFTER',
    default: '20000',
    help: 'creates logged before the data file is rewritten (or as many as it holds pets, if more)',
  },
  'quota-pets': { env: 'PETSTORE_QUOTA_PETS', default: '1000000', help: 'most pets per workspace' },
  'quota-bytes': { env: 'PETSTORE_QUOTA_BYTES', default: String(128 * 1024 * 1024), help: 'most bytes of pet data per workspace' },
  'max-workspaces': { env: 'PETSTORE_MAX_WORKSPACES', default: '1000', help: 'workspaces open at once' },
  'workspace-idle': { env: 'PETSTORE_WORKSPACE_IDLE', default: '60', help: 'seconds before an unused workspace is closed' },
  ...OPEN_KEY_OPTIONS,
  'checkpoint-count': { env: 'PETSTORE_CHECKPOINT_COUNT', default: '20', help: 'named checkpoints per workspace' },
  'checkpoint-bytes': { env: 'PETSTORE_CHECKPOINT_BYTES', default: String(256 * 1024 * 1024), help: 'bytes of checkpoints per workspace' },
  ...OPS_OPTIONS,
} as const;

export type OptionName = keyof typeof OPTIONS;

/** The options' variables by flag, for messages. */
const variableOf = (name: string): string | undefined => (OPTIONS as Record<string, { env: string }>)[name]?.env;

/** A whole number in [min, max]; `named` is the option as the caller gave it (naming.ts). */
function integer(named: string, raw: string, min: number, max: number): number {
  if (!/^-?\d+$/.test(raw.trim())) throw new ConfigError(`${named} must be a whole number, got '${raw}'`);
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n < min || n > max) throw new ConfigError(`${named} must be between ${min} and ${max}, got '${raw}'`);
  return n;
}

function boolean(named: string, raw: string): boolean {
  const v = raw.trim().toLowerCase();
  if (['true', '1', 'yes', 'on'].includes(v)) return true;
  if (['false', '0', 'no', 'off'].includes(v)) return false;
  throw new ConfigError(`${named} must be true or false, got '${raw}'`);
}

function list(named: string, raw: string): string[] {
  const items = raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (items.length === 0) throw new ConfigError(`${named} needs at least one value`);
  return items;
}

/** Control-plane origins are exact origins: `*` would let any web page drive the sandbox. */
function controlOrigins(named: string, raw: string): string[] {
  const origins = raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const origin of origins) {
    let parsed: string | undefined;
    try {
      parsed = new URL(origin).origin;
    } catch {
      parsed = undefined;
    }
    if (parsed !== origin) throw new ConfigError(`${named}: '${origin}' is not an origin such as http://localhost:3000 (* is not allowed)`);
  }
  return origins;
}

/** Whether `--store` names a PostgreSQL database rather than a data file. */
export { isPostgresUrl } from './store.js';

/** Option values by name, as parsed from flags: text, or `true` for a flag given bare. */
export type OptionValues = Record<string, string | boolean | readonly string[] | undefined>;

/**
 * The configuration of option values (flags, which win, then environment
 * variables, then defaults), every value checked. Reads no file but the
 * secret files it is told of, through `io`, and makes paths absolute with
 * `resolvePath`: with no Node module of its own, it also configures the
 * sandbox in a browser. Throws ConfigError, naming each option as `naming`
 * says its values were given (the command line's flags unless told).
 */
export function configFromValues(
  values: OptionValues,
  env: Readonly<Record<string, string | undefined>>,
  io: ConfigIo,
  resolvePath: (path: string) => string,
  naming: Naming = FLAG_NAMING,
): Config {
  const describe = describerOf(naming, values, env, variableOf);
  const int = (name: string, raw: string, min: number, max: number) => integer(describe(name), raw, min, max);
  const get = (name: OptionName): string => {
    const flag = values[name];
    // A repeated option's values (`--spec`) as the variable would list them.
    if (typeof flag === 'string' || Array.isArray(flag)) return String(flag);
    if (flag === true) return 'true';
    const fromEnv = env[OPTIONS[name].env];
    return fromEnv !== undefined && fromEnv !== '' ? fromEnv : OPTIONS[name].default;
  };

  const mode = get('mode');
  if (!(MODES as readonly string[]).includes(mode)) throw new ConfigError(`${describe('mode')} must be one of ${MODES.join(', ')}, got '${mode}'`);
  const secret = (name: 'api-keys' | 'admin-token') => {
    const file = `${name}-file` as const;
    const options = { value: { flag: name, env: OPTIONS[name].env }, file: { flag: file, env: OPTIONS[file].env }, default: OPTIONS[name].default };
    return readSecret(options, values, env, io, naming);
  };
  const keysSecret = secret('api-keys');
  const admin = adminTokenConfigOf(secret('admin-token'), DEFAULT_ADMIN_TOKEN, [keysSecret]);
  const origins = list(describe('cors-origins'), get('cors-origins'));
  const host = get('host').trim();
  if (!host) throw new ConfigError(`${describe('host')} must not be empty`);
  return Object.freeze({
    port: int('port', get('port'), 0, 65535),
    host,
    ...allowedHostsConfigOf(get, describe),
    ...storeConfigOf(get, int, resolvePath, describe),
    ...specsConfigOf(values.spec, env[OPTIONS.spec.env], describe('spec'), resolvePath),
    seed: int('seed', get('seed'), 0, 2 ** 32 - 1),
    count: int('count', get('count'), 0, 1_000_000),
    apiKeys: Object.freeze(apiKeysOf(keysSecret)),
    ...admin,
    mode: mode as Mode,
    modeGiven: typeof values.mode === 'string' || (env[OPTIONS.mode.env] ?? '') !== '',
    ...upstreamOptions(get('upstream'), get('upstream-key'), mode, describe),
    upstreamTimeoutMs: int('upstream-timeout', get('upstream-timeout'), 1, 3600) * 1000,
    corsOrigins: origins.includes('*') ? '*' : Object.freeze(origins),
    controlCorsOrigins: Object.freeze(controlOrigins(describe('control-cors-origins'), get('control-cors-origins'))),
    maxConnections: int('max-connections', get('max-connections'), 1, 1_000_000),
    bodyLimit: int('body-limit', get('body-limit'), 1024, 64 * 1024 * 1024),
    openKeys: boolean(describe('open-keys'), get('open-keys')),
    journalSize: int('journal-size', get('journal-size'), 0, 100_000),
    journalMemory: int('journal-memory', get('journal-memory'), 0, 2 ** 40),
    compactAfter: int('compact-after', get('compact-after'), 1, 10_000_000),
    quotaPets: int('quota-pets', get('quota-pets'), 0, 100_000_000),
    quotaBytes: int('quota-bytes', get('quota-bytes'), 0, 64 * 1024 * 1024 * 1024),
    maxWorkspaces: int('max-workspaces', get('max-workspaces'), 1, 1_000_000),
    workspaceIdleMs: int('workspace-idle', get('workspace-idle'), 1, 7 * 24 * 3600) * 1000,
    ...openKeysConfigOf(get, int),
    checkpointCount: int('checkpoint-count', get('checkpoint-count'), 0, 10_000),
    // A checkpoint is read back as one string when restored: V8 caps a string just under 512 MiB.
    checkpointBytes: int('checkpoint-bytes', get('checkpoint-bytes'), 0, 500 * 1024 * 1024),
    ...opsConfigOf(get, int, values, env, io, resolvePath, naming, describe),
  });
}
