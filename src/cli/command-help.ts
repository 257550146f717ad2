/**
 * Each command's own `--help`: its usage and the options it reads, not the
 * 78 lines of the server's. `verify --help` is the contract checks' own.
 */

/** Where a QA command works: the options every one of them reads. */
const WHERE = `Where it works:
  --url <origin>            a running sandbox (e.g. http://127.0.0.1:4010); default
                            the one serving --data, else the files themselves
  --data <file>, --store <file | postgres://...>
                            the data the command works on when no sandbox runs
  --key <API key>           the workspace (default the first of --api-keys)
  --admin-token <token>, --admin-token-file <file>
                            the control plane's token`;

/** A command's usage lines and its own options; `where` adds the options of where it works. */
const HELP: Record<string, { usage: string; options?: string; where?: boolean }> = {
  seed: { usage: 'seed', options: '  --count <n>               pets to seed (default 50)\n  --seed <n>                faker seed (default 1)', where: true },
  reset: { usage: 'reset [--empty]', options: "  --empty                   no pets at all, rather than a fresh sandbox's", where: true },
  load: {
    usage: 'load <name | file.json> [--append]',
    options:
      '  <name | file.json>        a fixture set from fixtures/ by name, or a file\n  --append                  add to the workspace rather than replace it',
    where: true,
  },
  export: { usage: 'export [file]', options: '  [file]                    where the fixture set is written (stdout if none)', where: true },
  journal: {
    usage: 'journal [--limit N] [--unauthenticated]',
    options: '  --limit <N>               the last N requests\n  --unauthenticated         those sent without a valid API key',
    where: true,
  },
  pact: {
    usage: 'pact --consumer <name> [file] [--unauthenticated]',
    options:
      '  --consumer <name>         the consumer the pact is recorded for\n  [file]                    where the pact is written (stdout if none)\n  --unauthenticated         with the 401s of requests sent without a key',
    where: true,
  },
  coverage: {
    usage: 'coverage [file] [--format json|markdown|junit] [--fail-under N] [--all]',
    options:
      "  [file]                    where the report is written (stdout if none)\n  --format <json|markdown|junit>\n  --fail-under <N>          exit 1 under N percent\n  --all                     every workspace, not only --key's",
    where: true,
  },
  checkpoint: {
    usage: 'checkpoint list | save <name> [--overwrite] | restore <name> | delete <name>',
    options: '  --overwrite               save over a checkpoint of that name',
    where: true,
  },
  copy: {
    usage: 'copy --to <API key> [--checkpoint <name>]',
    options: "  --to <API key>            the workspace copied into\n  --checkpoint <name>       one of the workspace's checkpoints rather than its data",
    where: true,
  },
  diff: {
    usage: 'diff <old spec> <new spec> [--format json|markdown] [--out file] [--json file] [--markdown file]',
    options:
      '  the changes between two versions of a spec, breaking ones first (docs/spec-diff.md);\n  exit 1 when one would break a consumer, 0 when none does, 2 on a usage error or an unreadable spec\n  <old spec> <new spec>     two OpenAPI 3 documents, YAML or JSON\n  --format <json|markdown>  what is written on stdout or to --out (default markdown)\n  --out <file>              the report written there in --format, not on stdout\n  --json <file>, --markdown <file>\n                            the report written there as JSON, as Markdown (both may be given)',
  },
  mcp: {
    usage: 'mcp --url <origin> [--admin-token-file <file>] [--key <API key>] [--timeout <seconds>]',
    options:
      "  an MCP server on stdio for coding agents (docs/mcp.md)\n  --url <origin>            the sandbox it drives, through its control plane\n  --admin-token-file <file> the control plane's token (or --admin-token, PETSTORE_ADMIN_TOKEN)\n  --key <API key>           the default workspace\n  --timeout <seconds>       how long a call waits for the sandbox (default 10)",
  },
};

/** The commands with a help of their own. */
export const HELP_COMMANDS = Object.keys(HELP);

/** `<command> --help`'s text, or undefined for a command without one of its own (serving's is the whole usage). */
export function commandHelp(command: string): string | undefined {
  const help = HELP[command];
  if (help === undefined) return undefined;
  const parts = [`Usage: petstore-sandbox ${help.usage}`, ...(help.options === undefined ? [] : [`\n${help.options}`]), ...(help.where ? [`\n${WHERE}`] : [])];
  return `${parts.join('\n')}\n\nEvery option: petstore-sandbox --help\n`;
}
