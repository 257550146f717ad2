import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigError } from './error.js';
import { configFromValues, OPTIONS, type Config } from './config-of.js';
import { fileIo } from './file-io.js';
import type { ConfigIo } from './secrets.js';

export * from './config-of.js';

/** The arguments as parseArgs reads them: every option, the sub-command's, `--help` and `--version`. */
function parse(
  argv: readonly string[],
  commandOptions: Record<string, { type: 'string' | 'boolean' }>,
): { values: Record<string, string | boolean | undefined>; positionals: string[] } {
  try {
    const parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: {
        ...Object.fromEntries(Object.entries(OPTIONS).map(([k, o]) => [k, { type: 'flag' in o ? ('boolean' as const) : ('string' as const) }])),
        ...commandOptions,
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean' },
      },
    });
    return { values: parsed.values as Record<string, string | boolean | undefined>, positionals: parsed.positionals };
  } catch (error) {
    throw new ConfigError((error as Error).message);
  }
}

/**
 * Reads the configuration from command-line arguments (which win) and
 * environment variables. Pure but for reading the secret files it is told
 * of, through `io`; no process exit. Throws ConfigError.
 * Returns the remaining positional arguments (sub-command and its operands).
 */
export function loadConfig(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
  /** Options of a sub-command, parsed alongside and returned in `extra`. */
  commandOptions: Record<string, { type: 'string' | 'boolean' }> = {},
  io: ConfigIo = fileIo,
): { config: Config; positionals: string[]; help: boolean; version: boolean; extra: Record<string, string | boolean | undefined> } {
  const parsed = parse(argv, commandOptions);
  const values = parsed.values;
  const config = configFromValues(values, env, io, resolve);
  const extra = Object.fromEntries(Object.keys(commandOptions).map((k) => [k, values[k]]));
  return { config, positionals: parsed.positionals, help: values.help === true, version: values.version === true, extra };
}
