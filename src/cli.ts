/**
 * The command line as a function: `runCli(argv, env)` parses, starts the
 * sandbox or runs a QA command, and resolves with the exit code. Importing
 * it starts nothing; `bin.ts` is the executable that calls it (and the
 * package's `petstore-sandbox/cli` entry, for scripts that run the command
 * line in their own process).
 */
import { COMMAND_OPTIONS, COMMANDS, CommandError, runCommand, type Command } from './cli/commands.js';
import { serve } from './cli/serve.js';
import { ConfigError, loadConfig, OPTIONS, type Config } from './config/load.js';
import { importPeer, MissingPeerError } from './config/optional-peers.js';
import { PACKAGE_VERSION as version } from './config/paths.js';
import { npmSwallowed } from './cli/npm-args.js';
import { cliWording } from './cli/wording.js';
import { mcpUsageProblem } from './cli/mcp-usage.js';
import { runVerify } from './cli/verify.js';
import { commandHelp } from './cli/command-help.js';
import { didYouMean } from './config/did-you-mean.js';
import { DIFF_OPTIONS, runDiff, SpecReadError } from './cli/diff-command.js';

const usage = `Usage: petstore-sandbox [options]             serve the Pet Store interface under /v1
       petstore-sandbox <command> [options]   QA commands on a sandbox or its data

Commands (against the sandbox serving --data, or --url; all but journal,
pact and coverage work directly on the data file when no sandbox runs):
  seed                      fill the workspace with --count pets from --seed
  reset [--empty]           back to a fresh sandbox's data, or empty
  load <name|file.json>     load a fixture set from fixtures/ or a file [--append]
  export [file]             write the workspace as a fixture set (stdout if no file)
  journal [--limit N]       the last requests the workspace received
                            (--unauthenticated: those sent without a valid API key)
  pact --consumer <name> [file]
                            the consumer's pact (Pact V4) recorded from the journal
                            (--unauthenticated: with the 401s of requests without a key)
  coverage [file] [--format json|markdown|junit] [--fail-under N] [--all]
                            which operations and documented statuses the requests
                            exercised (exit 1 under --fail-under percent; --all:
                            every workspace)
  checkpoint list | save <name> [--overwrite] | restore <name> | delete <name>
                            named checkpoints of the workspace; restore gives back
                            exactly what was saved
  copy --to <API key> [--checkpoint <name>]
                            the workspace's data (or one of its checkpoints) into
                            the workspace of another key
  mcp --url <origin> [--admin-token-file <file>] [--key <API key>] [--timeout <seconds>]
                            an MCP server on stdio for coding agents: tools that
                            drive the sandbox at --url through its control plane
                            (data, faults, journal, coverage, checkpoints, mode)
                            (docs/mcp.md)
  diff <old spec> <new spec> [--format json|markdown] [--out file] [--json file] [--markdown file]
                            the changes between two versions of a spec, breaking
                            ones first (exit 1 when one would break a consumer;
                            docs/spec-diff.md)
  verify --target <url ending in /v1> --key <API key> [--report junit=<file>]
                            check any deployment against the interface's contracts
                            (Dredd and Pact; verify --help for its options; needs
                            dredd and @pact-foundation/pact installed beside the package)
  verify --spec <file> [--spec <file> ...] [--target <origin> --key <API key>]
                            check a sandbox serving those specs (one it starts,
                            or --target) against each of them
Command options: --url <origin> (e.g. http://127.0.0.1:4010), --key <API key> (workspace; default the first key)

Options (each also from an environment variable):
${Object.entries(OPTIONS)
  .map(([name, o]) => `  --${name.padEnd(20)} ${o.help} (env ${o.env}, default ${o.default || 'none'})`)
  .join('\n')}
  -h, --help               this text
  --version                the sandbox's version
`;

/** The line after a usage error's reason: where the options are, rather than all of them. */
const HELP_HINT = 'Run petstore-sandbox --help for the options.';

/** The options of the QA commands, `diff`'s with the others'. */
const QA_OPTIONS = { ...COMMAND_OPTIONS, ...DIFF_OPTIONS };

/** The options that take a value, the server's and the commands'. */
const VALUED_OPTIONS = [
  ...Object.entries(OPTIONS).flatMap(([name, o]) => ('flag' in o ? [] : [name])),
  ...Object.entries(QA_OPTIONS).flatMap(([name, o]) => (o.type === 'string' ? [name] : [])),
];

/** Every command the command line takes. */
const ALL_COMMANDS = ['serve', ...COMMANDS, 'diff', 'mcp', 'verify'];

/** The unknown command's refusal, with the nearest command for a near miss; exit code 2. */
function unknownCommand(name: string): number {
  // A number where a command goes is an option's value whose option went missing.
  const near = didYouMean(name, ALL_COMMANDS, (c) => `'${c}'`);
  // No near miss: the commands there are, so that the one meant can be seen.
  const hint =
    /^\d+$/.test(name) ? ` (an option's value? Options start with --, e.g. --port ${name})` : near || `: the commands are ${ALL_COMMANDS.join(', ')}`;
  console.error(`petstore-sandbox: unknown command '${name}'${hint}\n${HELP_HINT}`);
  return 2;
}

/** `--help`: a command's own (its usage and options), else the whole usage. */
function help(name: string | undefined): number {
  if (name !== undefined && !ALL_COMMANDS.includes(name)) return unknownCommand(name);
  console.log((name === undefined ? undefined : commandHelp(name)) ?? usage);
  return 0;
}

/** A QA command, to its exit code (`diff`'s own: 1 when a change breaks a consumer). */
async function command(name: string, operands: string[], config: Config, extra: Record<string, string | boolean | undefined>): Promise<number> {
  if (name !== 'diff' && !(COMMANDS as readonly string[]).includes(name)) return unknownCommand(name);
  const io = { out: (t: string) => console.log(t), err: (t: string) => console.error(t) };
  try {
    if (name === 'diff') return await runDiff(operands, extra, io);
    await runCommand(name as Command, operands, config, extra, io);
    return 0;
  } catch (error) {
    if (!(error instanceof CommandError)) throw error;
    // A spec that cannot be read is not a mistake of the options: its message says it all.
    const hint = error.exitCode === 2 && !(error instanceof SpecReadError);
    console.error(`petstore-sandbox ${name}: ${cliWording(error.message)}${hint ? `\n${HELP_HINT}` : ''}`);
    return error.exitCode;
  }
}

/** `mcp`: the MCP server on stdio until its client goes, to its exit code; the SDK loaded only for it. */
async function mcp(operands: string[], config: Config, extra: Record<string, string | boolean | undefined>): Promise<number> {
  const problem = mcpUsageProblem(operands, extra);
  if (problem !== undefined) {
    console.error(`petstore-sandbox mcp: ${problem}\n${HELP_HINT}`);
    return 2;
  }
  // The MCP SDK is an optional peer dependency: a missing one is named with the command that installs it.
  let runMcp;
  try {
    ({ runMcp } = await importPeer(['@modelcontextprotocol/sdk'], 'The MCP server', () => import('./cli/mcp-command.js')));
  } catch (error) {
    if (!(error instanceof MissingPeerError)) throw error;
    console.error(`petstore-sandbox mcp: ${error.message}`);
    return 2;
  }
  // stdout is the protocol's: anything to say goes to stderr.
  return runMcp(config, extra, (line) => console.error(line));
}

/**
 * Runs the command line on `argv` (the arguments after the executable's
 * name, as `process.argv.slice(2)`) with `env` for the options' variables,
 * writing to the console; resolves with the exit code, and rejects only on
 * a failure it cannot explain. Serving lasts until SIGINT or SIGTERM.
 */
export async function runCli(argv: readonly string[], env: Readonly<Record<string, string | undefined>> = process.env): Promise<number> {
  // verify has options of its own (those of `npm run verify`), none of the sandbox's.
  if (argv[0] === 'verify') return runVerify(argv.slice(1));
  let loaded;
  try {
    loaded = loadConfig(argv, env, QA_OPTIONS);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(`petstore-sandbox: ${error.message}\n${HELP_HINT}`);
    return 2;
  }
  if (loaded.help) return help(loaded.positionals[0]);
  if (loaded.version) {
    console.log(version);
    return 0;
  }
  const npm = npmSwallowed(env, VALUED_OPTIONS, loaded.positionals);
  if (npm !== undefined) {
    console.error(`petstore-sandbox: npm kept the options for itself and passed only their values on; use \`${npm}\``);
    return 2;
  }
  const [name, ...operands] = loaded.positionals;
  if (name === 'mcp') return mcp(operands, loaded.config, loaded.extra);
  if (name !== undefined && name !== 'serve') return command(name, operands, loaded.config, loaded.extra);
  return serve(loaded.config, env);
}
