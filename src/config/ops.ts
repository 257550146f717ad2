import { ConfigError } from './error.js';
import { adminTokenOf, readSecret, type ConfigIo } from './secrets.js';
import { FLAG_NAMING, type Naming } from './naming.js';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
/** `auto`: pretty on a terminal, JSON otherwise (decided by bin.ts, which knows whether stdout is one). */
export const LOG_FORMATS = ['auto', 'json', 'pretty'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

/**
 * Which /v1 answers' bodies the report checks against the spec on the
 * request's path (`--check-answers`), for `petstore_spec_mismatches_total`;
 * every status is checked whatever this says. `every`: one answer in that
 * many (1: all, 0: none); `checked`: whether a body built from values
 * already checked (the store's pets) is checked again.
 */
export interface AnswerChecks {
  readonly every: number;
  readonly checked: boolean;
}

/** `full`, `all`, `sample:N` or `off`, as an AnswerChecks. */
function answerChecksOf(named: string, raw: string): AnswerChecks {
  const text = raw.trim().toLowerCase();
  if (text === 'full') return { every: 1, checked: true };
  if (text === 'all') return { every: 1, checked: false };
  if (text === 'off') return { every: 0, checked: false };
  const sample = /^sample:([1-9][0-9]{0,5})$/.exec(text);
  if (sample) return { every: Number(sample[1]), checked: false };
  throw new ConfigError(`${named} must be full, all, sample:N (N from 1 to 999999) or off, got '${raw}'`);
}

/** What an operator running the sandbox as a service sets: logs, metrics, shutdown, fairness between clients. */
export interface OpsConfig {
  /** Lowest level logged; `info` logs one line per request, `warn` none. Default info. */
  readonly logLevel: LogLevel;
  /** How log lines are written. Default auto. */
  readonly logFormat: LogFormat;
  /** Bearer token `/metrics` asks for; undefined: `/metrics` is open (it carries counts, never a key). */
  readonly metricsToken: string | undefined;
  /** After SIGTERM, how long `/readyz` answers 503 while requests are still served, before the listener closes. Default 0. */
  readonly shutdownDelayMs: number;
  /** Open connections one client address may hold (kept below `--max-connections`). Default 256. */
  readonly maxConnectionsPerClient: number;
  /** A file written (atomically, as JSON) with the address once the sandbox listens, and removed when it stops; for scripts. Default none. */
  readonly readyFile: string | undefined;
  /** Which answers' bodies are checked against the spec as they are reported. Default all (`{ every: 1, checked: false }`). */
  readonly checkAnswers: AnswerChecks;
}

/** The options of OpsConfig: flag, environment variable, default, help. */
export const OPS_OPTIONS = {
  'log-level': { env: 'PETSTORE_LOG_LEVEL', default: 'info', help: `${LOG_LEVELS.join(' | ')} (info logs each request)` },
  'log-format': { env: 'PETSTORE_LOG_FORMAT', default: 'auto', help: 'json | pretty | auto (pretty on a terminal, else json)' },
  'metrics-token': { env: 'PETSTORE_METRICS_TOKEN', default: '', help: 'bearer token /metrics asks for (none: /metrics is open)' },
  'metrics-token-file': { env: 'PETSTORE_METRICS_TOKEN_FILE', default: '', help: 'file holding the metrics token' },
  'shutdown-delay': { env: 'PETSTORE_SHUTDOWN_DELAY', default: '0', help: 'seconds /readyz answers 503 after SIGTERM before the listener closes' },
  'max-connections-per-client': { env: 'PETSTORE_MAX_CONNECTIONS_PER_CLIENT', default: '256', help: 'open connections one client address may hold' },
  'ready-file': { env: 'PETSTORE_READY_FILE', default: '', help: 'file written with the address (JSON) once listening, removed on exit' },
  'check-answers': {
    env: 'PETSTORE_CHECK_ANSWERS',
    default: 'all',
    help: "all | sample:N | off | full: /v1 answer bodies checked against the spec for the mismatch metric (all: but those built from the store's pets)",
  },
} as const;

function oneOf<T extends string>(named: string, raw: string, allowed: readonly T[]): T {
  if (!(allowed as readonly string[]).includes(raw)) throw new ConfigError(`${named} must be one of ${allowed.join(', ')}, got '${raw}'`);
  return raw as T;
}

/** The ops part of the configuration; `get` reads an option as loadConfig does (flag, variable, default). */
export function opsConfigOf(
  get: (name: keyof typeof OPS_OPTIONS) => string,
  integer: (name: string, raw: string, min: number, max: number) => number,
  flags: Record<string, unknown>,
  env: Readonly<Record<string, string | undefined>>,
  io: ConfigIo,
  resolve: (path: string) => string,
  naming: Naming = FLAG_NAMING,
  /** An option named as its value was given (naming.ts). */
  describe: (name: string) => string = naming.of,
): OpsConfig {
  const option = (name: 'metrics-token' | 'metrics-token-file') => ({ flag: name, env: OPS_OPTIONS[name].env });
  const token = readSecret({ value: option('metrics-token'), file: option('metrics-token-file'), default: '' }, flags, env, io, naming);
  return {
    logLevel: oneOf(describe('log-level'), get('log-level').trim().toLowerCase(), LOG_LEVELS),
    logFormat: oneOf(describe('log-format'), get('log-format').trim().toLowerCase(), LOG_FORMATS),
    metricsToken: token.text === '' ? undefined : adminTokenOf(token),
    shutdownDelayMs: integer('shutdown-delay', get('shutdown-delay'), 0, 3600) * 1000,
    maxConnectionsPerClient: integer('max-connections-per-client', get('max-connections-per-client'), 1, 1_000_000),
    readyFile: get('ready-file').trim() === '' ? undefined : resolve(get('ready-file').trim()),
    checkAnswers: answerChecksOf(describe('check-answers'), get('check-answers')),
  };
}
