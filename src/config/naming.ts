/**
 * How a message names an option: in the words of whoever set it. The
 * command line names its flag (`--seed`), the environment its variable
 * (`PETSTORE_SEED`), the library its option (`seed`); a default that turns
 * out wrong (proxy mode without an upstream) is named every way it can be set.
 */

/** How the option values handed to configFromValues were given: each option's name there, and whether variables were read too. */
export interface Naming {
  /** The name of a value given in `values`, by its flag's name: `--seed` on the command line, `seed` in the library. */
  of(flag: string): string;
  /** Whether the environment's variables are read (the command line's), so that they are named too. */
  env: boolean;
}

/** The command line's naming: flags, and the variables beside them. */
export const FLAG_NAMING: Naming = { of: (flag) => `--${flag}`, env: true };

/** Names an option as its value was given: from `values`, from `env`, or neither (then every way to set it). */
export function describerOf(
  naming: Naming,
  values: Readonly<Record<string, unknown>>,
  env: Readonly<Record<string, string | undefined>>,
  variableOf: (flag: string) => string | undefined,
): (flag: string) => string {
  return (flag) => {
    const variable = variableOf(flag);
    if (values[flag] !== undefined && values[flag] !== false) return naming.of(flag);
    if (!naming.env || variable === undefined) return naming.of(flag);
    return (env[variable] ?? '') !== '' ? variable : `${naming.of(flag)} (or ${variable})`;
  };
}
