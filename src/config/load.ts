import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigError } from './error.js';
import { didYouMean } from './did-you-mean.js';
import { configFromValues, OPTIONS, type Config } from './config-of.js';
import { fileIo } from './file-io.js';
import type { ConfigIo } from './secrets.js';

export * from './config-of.js';

type OptionTypes = Record<string, { type: 'string' | 'boolean'; short?: string; multiple?: boolean }>;

/** A value read as a flag's own although the user meant it for another: `--seed --count 5`. A negative number is a value, judged by its option. */
const looksLikeAFlag = (value: string): boolean => value.length > 1 && value.startsWith('-') && !/^-\d/.test(value);

/**
 * The arguments as parseArgs reads them: every option, the sub-command's,
 * `--help` and `--version`. parseArgs reads them leniently, and each option
 * it found is judged here, so that a mistake is said in the command line's
 * words (with the nearest flag for a mistyped one), never in the parser's.
 */
function parse(
  argv: readonly string[],
  commandOptions: OptionTypes,
): { values: Record<string, string | boolean | string[] | undefined>; positionals: string[] } {
  const options: OptionTypes = {
    ...Object.fromEntries(
      Object.entries(OPTIONS).map(([k, o]) => [
        k,
        { type: 'flag' in o ? ('boolean' as const) : ('string' as const), ...('multiple' in o ? { multiple: true } : {}) },
      ]),
    ),
    ...commandOptions,
    help: { type: 'boolean', short: 'h' },
    version: { type: 'boolean' },
  };
  const parsed = parseArgs({ args: [...argv], allowPositionals: true, strict: false, tokens: true, options });
  for (const token of parsed.tokens) {
    if (token.kind !== 'option') continue;
    const type = Object.hasOwn(options, token.name) ? options[token.name]?.type : undefined;
    if (type === undefined) {
      const hint = token.rawName.startsWith('--') ? didYouMean(token.name, Object.keys(options), (name) => `--${name}`) : '';
      throw new ConfigError(`unknown option '${token.rawName}'${hint}`);
    }
    if (type === 'boolean' && token.inlineValue) throw new ConfigError(`${token.rawName} takes no value: give it alone to turn it on, leave it out for off`);
    if (type === 'string' && (token.value === undefined || (!token.inlineValue && looksLikeAFlag(token.value))))
      throw new ConfigError(`${token.rawName} needs a value (one that starts with '-' is given as ${token.rawName}=<value>)`);
  }
  return { values: parsed.values as Record<string, string | boolean | string[] | undefined>, positionals: parsed.positionals };
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
  commandOptions: OptionTypes = {},
  io: ConfigIo = fileIo,
): { config: Config; positionals: string[]; help: boolean; version: boolean; extra: Record<string, string | boolean | undefined> } {
  const parsed = parse(argv, commandOptions);
  const values = parsed.values;
  const config = configFromValues(values, env, io, resolve);
  // A command's own options are never repeatable: each is text or a switch.
  const extra = Object.fromEntries(Object.keys(commandOptions).map((k) => [k, values[k]])) as Record<string, string | boolean | undefined>;
  return { config, positionals: parsed.positionals, help: values.help === true, version: values.version === true, extra };
}
