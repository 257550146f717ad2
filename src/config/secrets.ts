import { ConfigError } from './error.js';
import { FLAG_NAMING, type Naming } from './naming.js';

/** How loadConfig reads secret files; tests give their own. */
export interface ConfigIo {
  readFile(path: string): string;
  /** Whether any user of the machine may read the file: a secret in it is then no secret (a warning, never a refusal). */
  readableByAnyone?(path: string): boolean;
}

/** The four ways to give one secret: a value or a file, each as a flag or a variable. */
export interface SecretOptions {
  value: { flag: string; env: string };
  file: { flag: string; env: string };
  default: string;
}

/** A secret's text and where it came from, for messages that must never show the secret itself. */
export interface Secret {
  text: string;
  source: string;
  fromFile: boolean;
  /** Said at start-up when the secret's file is open to every user of the machine. */
  warning?: string;
}

/**
 * Reads a secret given as a value or as a file, never both in the same place
 * (two flags, or two variables); a flag wins over a variable as everywhere.
 * A file that cannot be read is named, with the reason, never its content.
 */
export function readSecret(
  options: SecretOptions,
  flags: Record<string, unknown>,
  env: Readonly<Record<string, string | undefined>>,
  io: ConfigIo,
  /** How the values in `flags` were given (naming.ts): a message names them so. */
  naming: Naming = FLAG_NAMING,
): Secret {
  for (const place of ['flag', 'env'] as const) {
    const pick = (name: { flag: string; env: string }) => {
      const raw = place === 'flag' ? flags[name.flag] : env[name.env];
      return typeof raw === 'string' && raw !== '' ? raw : undefined;
    };
    const label = (name: { flag: string; env: string }) => (place === 'flag' ? naming.of(name.flag) : name.env);
    const value = pick(options.value);
    const path = pick(options.file);
    if (value !== undefined && path !== undefined) {
      throw new ConfigError(`${label(options.value)} and ${label(options.file)} are both set; give the secret one way only`);
    }
    if (value !== undefined) return { text: value, source: label(options.value), fromFile: false };
    if (path === undefined) continue;
    const source = `${label(options.file)} '${path}'`;
    try {
      const text = io.readFile(path);
      const open = io.readableByAnyone?.(path) === true;
      const warning = `${source} can be read by every user of this machine: chmod o-r it (0600 keeps it to its owner)`;
      return { text, source, fromFile: true, ...(open ? { warning } : {}) };
    } catch (error) {
      throw new ConfigError(`cannot read ${source}: ${(error as NodeJS.ErrnoException).code ?? 'unreadable'}`);
    }
  }
  return { text: options.default, source: naming.of(options.value.flag), fromFile: false };
}

/** Bearer tokens are RFC 6750 `b64token`s: anything else could never be sent. */
const TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;
const TOKEN_HELP = 'letters, digits and -._~+/, optionally ending in =';

/**
 * The API keys of a secret: comma-separated, and in a file also one per line
 * with blank lines and `#` comments ignored. A rejected key is named by its
 * position, never echoed.
 */
export function apiKeysOf(secret: Secret): string[] {
  const lines = secret.fromFile ? secret.text.split(/\r?\n/).map((line) => line.split('#')[0] ?? '') : [secret.text];
  const keys = lines
    .flatMap((line) => line.split(','))
    .map((k) => k.trim())
    .filter(Boolean);
  if (keys.length === 0) throw new ConfigError(`${secret.source} needs at least one key`);
  keys.forEach((key, i) => {
    if (!TOKEN.test(key)) throw new ConfigError(`${secret.source}: key ${i + 1} is not a valid bearer token (${TOKEN_HELP})`);
  });
  return keys;
}

/** Where the admin token came from, for the start-up line: never the token itself. */
export interface AdminTokenConfig {
  /** What start-up says of the secrets (a token file every user may read); never a secret. */
  readonly secretWarnings: readonly string[];
  /** Token for the control plane under /__sandbox, given as a value or a file. Default `sandbox-admin`. */
  readonly adminToken: string;
  /** Where it came from: `default` when it is the documented default (which may be shown), else the flag or variable (with the file's path) that gave it. */
  readonly adminTokenFrom: string;
}

/** The admin token of a secret, where it came from, and the warnings of it and of `others` (the API keys' secret). */
export function adminTokenConfigOf(secret: Secret, documented: string, others: readonly Secret[] = []): AdminTokenConfig {
  const adminToken = adminTokenOf(secret);
  const secretWarnings = Object.freeze([secret, ...others].flatMap((s) => (s.warning === undefined ? [] : [s.warning])));
  return { adminToken, adminTokenFrom: adminToken === documented ? 'default' : secret.source, secretWarnings };
}

/** The admin token of a secret; a file's surrounding whitespace (its trailing newline) is not part of it. */
export function adminTokenOf(secret: Secret): string {
  const token = secret.fromFile ? secret.text.trim() : secret.text;
  if (!TOKEN.test(token)) throw new ConfigError(`${secret.source} must be one valid bearer token (${TOKEN_HELP})`);
  return token;
}
