#!/usr/bin/env node
import { COMMAND_OPTIONS, COMMANDS, CommandError, runCommand, type Command } from './cli/commands.js';
import { ConfigError, DEFAULT_API_KEY, loadConfig, OPTIONS, type Config } from './config.js';
import { isLoopbackHost } from './exposure.js';
import { LockError, LockedError } from './lock.js';
import { PACKAGE_VERSION as version } from './paths.js';
import { prettyDestination } from './log-pretty.js';
import { bufferedDestination, createLogger, type Logger } from './logger.js';
import { SERVER_LIMITS } from './http/server.js';
import { startSandbox } from './sandbox.js';
import { readyInfo, removeReadyFile, startLine, writeReadyFile } from './start-line.js';
import { StoreError } from './store/types.js';
import { describeTarget } from './store/postgres/pool.js';
import { npmSwallowed } from './cli/npm-args.js';
import { cliWording } from './cli/wording.js';

const usage = `Usage: petstore-sandbox [options]             serve the Pet Store interface under /v1
       petstore-sandbox <command> [options]   QA commands on a sandbox or its data

Commands (against the sandbox serving --data, or --url; all but journal and
pact work directly on the data file when no sandbox runs):
  seed                      fill the workspace with --count pets from --seed
  reset [--empty]           back to a fresh sandbox's data, or empty
  load <name|file.json>     load a fixture set from fixtures/ or a file [--append]
  export [file]             write the workspace as a fixture set (stdout if no file)
  journal [--limit N]       the last requests the workspace received
                            (--unauthenticated: those sent without a valid API key)
  pact --consumer <name> [file]
                            the consumer's pact (Pact V4) recorded from the journal
                            (--unauthenticated: with the 401s of requests without a key)
  checkpoint list | save <name> [--overwrite] | restore <name> | delete <name>
                            named checkpoints of the workspace; restore gives back
                            exactly what was saved
  copy --to <API key> [--checkpoint <name>]
                            the workspace's data (or one of its checkpoints) into
                            the workspace of another key
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

/** The options that take a value, the server's and the commands'. */
const VALUED_OPTIONS = [
  ...Object.entries(OPTIONS).flatMap(([name, o]) => ('flag' in o ? [] : [name])),
  ...Object.entries(COMMAND_OPTIONS).flatMap(([name, o]) => (o.type === 'string' ? [name] : [])),
];

/** The server's logger: JSON lines, or pretty ones for a person at a terminal (`--log-format auto`). */
function createServerLogger(config: Config): Logger {
  const pretty = config.logFormat === 'pretty' || (config.logFormat === 'auto' && process.stdout.isTTY);
  // Warnings and errors are rare and must not wait: written at once.
  if (!pretty) return createLogger({ level: config.logLevel, out: bufferedDestination(process.stdout), err: process.stderr });
  return createLogger({
    level: config.logLevel,
    out: prettyDestination((text) => process.stdout.write(text), process.stdout.isTTY),
    err: prettyDestination((text) => process.stderr.write(text), process.stderr.isTTY),
  });
}

/** The banner shows only the documented development key, and only on a loopback host: secrets stay off screens and logs. */
function shownKey(config: Config): string | undefined {
  return config.apiKeys[0] === DEFAULT_API_KEY && isLoopbackHost(config.host) ? DEFAULT_API_KEY : undefined;
}

/** The exit code of a failed start, after saying why; rethrows what it cannot explain. */
function startFailure(error: unknown, config: Config): number {
  if (error instanceof ConfigError) {
    console.error(`petstore-sandbox: ${error.message}`);
    return 2;
  }
  if (error instanceof LockError) {
    console.error(`petstore-sandbox: ${error.message}${error instanceof LockedError ? ' Use another --data, or stop that process.' : ''}`);
    return 1;
  }
  if (error instanceof StoreError) {
    console.error(`petstore-sandbox: ${error.message}`);
    return 1;
  }
  if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
    console.error(`petstore-sandbox: port ${config.port} on ${config.host} is already in use (choose another with --port).`);
    return 1;
  }
  throw error;
}

/**
 * How long after the listener closes the process may take to end: the
 * connections' grace (`closeGraceMs`), then the stores' flush. Every
 * request releases what it holds when its client leaves, so a clean stop
 * ends long before; past this, whatever still holds the process is logged
 * and it exits anyway (code 1), since a stop that never ends blocks a
 * rolling update for good.
 */
const SHUTDOWN_DEADLINE_MS = SERVER_LIMITS.closeGraceMs + 8_000;

/** Ends the process `afterMs` from now if nothing else has; an unref'd timer, so a clean stop is not delayed by it. */
function exitByDeadline(logger: Logger, afterMs: number): void {
  setTimeout(() => {
    logger.error(`still held ${afterMs / 1000} s after the stop signal (${process.getActiveResourcesInfo().join(', ')}): exiting`);
    logger.flush();
    process.exit(1);
  }, afterMs).unref();
}

/** Writes the `--ready-file`; false (after saying why) when it cannot, as a script waiting for it would wait forever. */
async function readyFileWritten(file: string, info: ReturnType<typeof readyInfo>, logger: Logger): Promise<boolean> {
  try {
    await writeReadyFile(file, info);
    return true;
  } catch (error) {
    logger.error(`cannot write --ready-file ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}; stopping`);
    logger.flush();
    return false;
  }
}

/** Where the state is kept, as the start-up lines say it. */
function storeLine(config: Config): string {
  if (config.postgresUrl !== undefined) return `  store:     PostgreSQL at ${describeTarget(config.postgresUrl)}`;
  if (config.memory) return '  store:     memory (this process only: nothing is written to disk, everything is gone when it stops)';
  return `  data file: ${config.dataFile}`;
}

/** Serves until SIGINT or SIGTERM, then flushes and stops. */
async function serve(config: Config): Promise<number> {
  const logger = createServerLogger(config);
  let sandbox;
  try {
    sandbox = await startSandbox(config, logger);
  } catch (error) {
    return startFailure(error, config);
  }
  const { origin, baseUrl } = sandbox;
  const mode = sandbox.runtime.mode;
  const info = readyInfo(origin);
  // The file first: whoever reads the start-up line finds it too.
  if (config.readyFile !== undefined && !(await readyFileWritten(config.readyFile, info, logger))) {
    await sandbox.close();
    return 1;
  }
  logger.notice(startLine(info, version, mode, config), { version, mode, origin });
  logger.info(storeLine(config));
  if (config.upstream) {
    const key = config.upstreamKey ? 'its own --upstream-key' : "each caller's key";
    logger.info(`  upstream:  ${config.upstream} (proxy mode forwards there, with ${key})`);
  }
  const key = shownKey(config);
  logger.info(`  API key:   ${key ? `Authorization: Bearer ${key}` : 'the first configured key (not shown)'}`);
  logger.info(`  try:       curl -H 'Authorization: Bearer ${key ?? '<API key>'}' ${baseUrl}/pets`);
  logger.info(`  health:    ${origin}/readyz   metrics: ${origin}/metrics`);
  for (const notice of sandbox.notices) logger.info(`  note:      ${notice}`);
  await new Promise<void>((resolve) => {
    const stop = (signal: string) => {
      // Readiness fails first, so a load balancer stops sending before the listener closes (the rolling-update pattern).
      sandbox.drain();
      const delay = config.shutdownDelayMs > 0 ? `; closing in ${config.shutdownDelayMs / 1000} s` : '';
      logger.info(`${signal}: /readyz answers 503${delay}, then requests in flight finish, the data is flushed and the sandbox stops`, { signal });
      setTimeout(resolve, config.shutdownDelayMs);
      exitByDeadline(logger, config.shutdownDelayMs + SHUTDOWN_DEADLINE_MS);
    };
    process.once('SIGINT', () => stop('SIGINT'));
    process.once('SIGTERM', () => stop('SIGTERM'));
  });
  await sandbox.close();
  if (config.readyFile !== undefined) await removeReadyFile(config.readyFile).catch((error: unknown) => logger.error('cannot remove --ready-file', error));
  logger.info('stopped');
  logger.flush();
  return 0;
}

/** A QA command, to its exit code. */
async function command(name: string, operands: string[], config: Config, extra: Record<string, string | boolean | undefined>): Promise<number> {
  if (!(COMMANDS as readonly string[]).includes(name)) {
    // A number where a command goes is an option's value whose option went missing.
    const hint = /^\d+$/.test(name) ? ` (an option's value? Options start with --, e.g. --port ${name})` : '';
    console.error(`petstore-sandbox: unknown command '${name}'${hint}\n${HELP_HINT}`);
    return 2;
  }
  try {
    await runCommand(name as Command, operands, config, extra, { out: (t) => console.log(t), err: (t) => console.error(t) });
    return 0;
  } catch (error) {
    if (!(error instanceof CommandError)) throw error;
    console.error(`petstore-sandbox ${name}: ${cliWording(error.message)}${error.exitCode === 2 ? `\n${HELP_HINT}` : ''}`);
    return error.exitCode;
  }
}

async function main(): Promise<number> {
  let loaded;
  try {
    loaded = loadConfig(process.argv.slice(2), process.env, COMMAND_OPTIONS);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(`petstore-sandbox: ${error.message}\n${HELP_HINT}`);
    return 2;
  }
  if (loaded.help || loaded.version) {
    console.log(loaded.help ? usage : version);
    return 0;
  }
  const npm = npmSwallowed(process.env, VALUED_OPTIONS, loaded.positionals);
  if (npm !== undefined) {
    console.error(`petstore-sandbox: npm kept the options for itself and passed only their values on; use \`${npm}\``);
    return 2;
  }
  const [name, ...operands] = loaded.positionals;
  if (name !== undefined && name !== 'serve') return command(name, operands, loaded.config, loaded.extra);
  return serve(loaded.config);
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error('petstore-sandbox: unexpected failure', error);
    process.exitCode = 1;
  },
);
