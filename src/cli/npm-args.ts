/**
 * `npm start --port 4011` gives `--port` to npm, not to the script: npm
 * sets `npm_config_port=true` and passes `4011` on as an argument. The
 * sandbox would then read `4011` as a command. This finds that case, so
 * that the answer is the command line that works.
 */

type Env = Readonly<Record<string, string | undefined>>;

/** The npm script that runs the sandbox, as it is typed: `npm start` or `npm run <name>`; undefined when npm does not run it. */
function npmScript(env: Env): string | undefined {
  const event = env.npm_lifecycle_event;
  if (!event) return undefined;
  return event === 'start' ? 'npm start' : `npm run ${event}`;
}

/**
 * When npm took some of the sandbox's own options for itself (`valued`:
 * those that take a value, whose values npm then passed on as arguments),
 * the command line to type instead, e.g. `npm start -- --port 4011`;
 * otherwise undefined.
 */
export function npmSwallowed(env: Env, valued: readonly string[], positionals: readonly string[]): string | undefined {
  const script = npmScript(env);
  if (script === undefined || positionals.length === 0) return undefined;
  const byVariable = new Map(valued.map((name) => [`npm_config_${name.replaceAll('-', '_')}`, name]));
  // In the environment's order, which is the order npm read them in.
  const flags = Object.keys(env).flatMap((variable) => {
    const name = byVariable.get(variable);
    return name !== undefined && env[variable] === 'true' ? [name] : [];
  });
  if (flags.length === 0) return undefined;
  // npm passes the values on in order, after whatever the command line had before them.
  const values = positionals.slice(Math.max(0, positionals.length - flags.length));
  const rest = positionals.slice(0, positionals.length - values.length);
  const options = flags.map((flag, i) => (values[i] === undefined ? `--${flag}` : `--${flag} ${values[i]}`));
  return `${script} -- ${[...rest, ...options].join(' ')}`;
}
