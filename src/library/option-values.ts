/**
 * A library sandbox's options as the option values the command line's flags
 * would give (config/config-of.ts checks them alike), each key checked
 * first: an unknown key, or one under `options` that a library sandbox would
 * not honour, is refused by name rather than ignored. Needs no Node: the
 * browser's sandbox reads its options through it too.
 */
import { ConfigError } from '../config/error.js';
import { OPTIONS, type Mode, type Naming, type OptionValues } from '../config/config-of.js';
import { didYouMean } from '../config/did-you-mean.js';

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
  /**
   * OpenAPI 3.0 files to serve statefully by convention, each under the
   * path of its first `servers` URL (docs/own-spec.md). Default none: the
   * embedded Pet Store at `/v1`.
   */
  spec?: string | SpecDocument | readonly (string | SpecDocument)[];
  /** Where `listen()` listens. Default 127.0.0.1. */
  host?: string;
  /**
   * Host names a request may be sent to beyond localhost, IP addresses and
   * `host` (`.example.com` for a domain, `'*'` for any): a request over a
   * network to any other name is refused (DNS rebinding). Default none.
   */
  allowedHosts?: readonly string[];
  /**
   * Any other option of the command line by its flag's name, e.g.
   * `{ 'journal-size': 500, 'open-keys': true }`; `false` leaves a switch
   * off. One of the options above, or one a library sandbox would not honour
   * (`log-level`, `ready-file`, ...), is refused with a ConfigError saying why.
   */
  options?: Readonly<Record<string, string | number | boolean>>;
}

/** An OpenAPI 3.0 document given as an object (the browser has no files), e.g. a spec file's YAML parsed. */
export type SpecDocument = Readonly<Record<string, unknown>>;

/** The specs of a `spec` option, in order: files and documents. */
export const specSources = (spec: CreateSandboxOptions['spec']): (string | SpecDocument)[] =>
  spec === undefined ? []
  : Array.isArray(spec) ? [...(spec as (string | SpecDocument)[])]
  : [spec as string | SpecDocument];

/** The options of their own, by the flag each stands for. */
const OWN = {
  seed: 'seed',
  count: 'count',
  store: 'store',
  mode: 'mode',
  apiKeys: 'api-keys',
  adminToken: 'admin-token',
  port: 'port',
  host: 'host',
  allowedHosts: 'allowed-hosts',
  spec: 'spec',
} as const satisfies Partial<Record<keyof CreateSandboxOptions, string>>;

const KEYS = [...Object.keys(OWN), 'options'];
const OWN_BY_FLAG = new Map(Object.entries(OWN).map(([key, flag]) => [flag as string, key]));

/** `options.x`, or `options['x-y']` for a name that is not an identifier. */
const underOptions = (flag: string): string => (/^[a-z]+$/i.test(flag) ? `options.${flag}` : `options['${flag}']`);

/** How messages name a library sandbox's options: its own keys, the rest under `options`; no variable is read. */
export const LIBRARY_NAMING: Naming = { of: (flag) => OWN_BY_FLAG.get(flag) ?? underOptions(flag), env: false };

/** Flags of the command line that a library sandbox does not take under `options`, and why. */
const NOT_UNDER_OPTIONS: Record<string, string> = {
  data: "a library sandbox's data file is its store option (store: './data/db.json')",
  'log-level': 'a library sandbox logs nothing: its host has a logger of its own',
  'log-format': 'a library sandbox logs nothing: its host has a logger of its own',
  'ready-file': "the command line's server writes it; a library sandbox's address is what listen() resolves with (and sandbox.url)",
  'shutdown-delay': "the command line's server waits on SIGTERM; a library sandbox stops when its close() is called",
};

/** Why `flag` cannot be given under `options`, or undefined when it can. */
function refusedUnderOptions(flag: string): string | undefined {
  const own = OWN_BY_FLAG.get(flag);
  if (own !== undefined) return `${underOptions(flag)} is an option of its own: give it as ${own}`;
  if (!Object.hasOwn(OPTIONS, flag)) return `unknown option ${underOptions(flag)}${didYouMean(flag, Object.keys(OPTIONS), underOptions)}`;
  const why = NOT_UNDER_OPTIONS[flag];
  return why === undefined ? undefined : `${underOptions(flag)} is not taken by a library sandbox: ${why}`;
}

/** An empty list of API keys or an empty admin token would be taken for the default: refused instead. */
function refuseEmpty(options: CreateSandboxOptions): void {
  const keys = options.apiKeys;
  if (keys !== undefined && keys.length === 0)
    throw new ConfigError("apiKeys is empty: no client could be answered. Give at least one key, or leave apiKeys out for the default 'sandbox-key'");
  const blank = keys?.findIndex((key) => typeof key !== 'string' || key.trim() === '') ?? -1;
  if (blank >= 0) throw new ConfigError(`apiKeys: key ${blank + 1} is empty`);
  if (options.adminToken !== undefined && options.adminToken.trim() === '')
    throw new ConfigError("adminToken is empty: give a token, or leave adminToken out for the default 'sandbox-admin'");
}

/** `persist` given where it means nothing: IndexedDB is the browser build's; on Node a data file keeps the pets. */
const PERSIST_ON_NODE =
  "persist keeps a browser sandbox's pets in IndexedDB, and this sandbox runs on Node: give store a data file (store: './data/db.json') to keep them across runs";

/** The option values of a library sandbox's options (the memory store unless told); throws a ConfigError for a key it would not honour. */
export function libraryValues(options: CreateSandboxOptions): OptionValues {
  for (const key of Object.keys(options)) {
    if (key === 'persist') throw new ConfigError(PERSIST_ON_NODE);
    if (!KEYS.includes(key)) throw new ConfigError(`unknown option '${key}'${didYouMean(key, KEYS)}`);
  }
  refuseEmpty(options);
  const values: OptionValues = {};
  const set = (flag: string, value: string | number | boolean | readonly unknown[] | SpecDocument | undefined) => {
    if (value === undefined || value === false) return;
    // Documents given as objects are handed to the sandbox apart (`specSources`): only files are an option's values.
    if (flag === 'spec' && specSources(value as CreateSandboxOptions['spec']).every((one) => typeof one !== 'string')) return;
    values[flag] =
      value === true ? true
      : flag === 'spec' ? specSources(value as CreateSandboxOptions['spec']).filter((one) => typeof one === 'string')
      : Array.isArray(value) ? value.join(',')
      : String(value);
  };
  for (const [key, flag] of Object.entries(OWN)) set(flag, options[key as keyof typeof OWN]);
  values.store ??= 'memory';
  for (const [flag, value] of Object.entries(options.options ?? {})) {
    const refused = refusedUnderOptions(flag);
    if (refused !== undefined) throw new ConfigError(refused);
    set(flag, value);
  }
  return values;
}
