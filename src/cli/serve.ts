/**
 * `petstore-sandbox` (or `petstore-sandbox serve`): start the sandbox, say
 * where it is, serve until SIGINT or SIGTERM, then drain, flush and stop.
 */
import { exposureNotices } from '../config/exposure.js';
import { ConfigError, DEFAULT_API_KEY, type Config } from '../config/load.js';
import { isLoopbackHost } from '../config/exposure.js';
import { LockError, LockedError } from '../store/file/lock.js';
import { PACKAGE_VERSION as version } from '../config/paths.js';
import { prettyDestination } from '../ops/log-pretty.js';
import { asyncDestination } from '../ops/log-destination.js';
import { createLogger } from '../ops/logger.js';
import type { Logger } from '../kernel/logger.js';
import type { Tracing } from '../kernel/tracing.js';
import { loadTracing } from '../ops/tracing.js';
import { SERVER_LIMITS } from '../adapters/node-server.js';
import { startSandbox } from '../server/sandbox.js';
import { capYoungGeneration } from '../server/young-generation.js';
import { readyInfo, removeReadyFile, startLine, writeReadyFile } from '../server/start-line.js';
import { StoreError } from '../store/types.js';
import { describeTarget } from '../store/postgres/pool.js';
import { poolerNotes } from '../store/postgres/pooler.js';

/** The server's logger: JSON lines, or pretty ones for a person at a terminal (`--log-format auto`). */
function createServerLogger(config: Config): Logger {
  const pretty = config.logFormat === 'pretty' || (config.logFormat === 'auto' && process.stdout.isTTY);
  if (!pretty) {
    const out = asyncDestination({
      fd: process.stdout.fd,
      onDropped: (lines) => logger.warn(`the log dropped ${lines} lines: stdout is not read as fast as it is written`, { dropped: lines }),
    });
    // Warnings and errors are rare and must not wait: written at once.
    const logger = createLogger({ level: config.logLevel, out, err: process.stderr, dropped: out.dropped });
    return logger;
  }
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

/** How long a stop waits for the spans still held to be exported (within the deadline above). */
const TRACES_FLUSH_MS = 3_000;

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

/** Serves until SIGINT or SIGTERM, then flushes and stops; the exit code. `env` says whether to trace (docs/tracing.md). */
export async function serve(config: Config, env: Readonly<Record<string, string | undefined>> = {}): Promise<number> {
  // Before the store loads: a server's young generation grown to V8's 64 MiB is memory held for nothing (docs/performance.md).
  const young = capYoungGeneration();
  const logger = createServerLogger(config);
  let sandbox;
  let tracing: Tracing | undefined;
  try {
    tracing = await loadTracing(env, version);
    sandbox = await startSandbox(config, logger, { tracing });
  } catch (error) {
    await tracing?.close(TRACES_FLUSH_MS);
    young.stop();
    return startFailure(error, config);
  }
  young.serving();
  const { origin, baseUrl } = sandbox;
  const mode = sandbox.runtime.mode;
  const info = readyInfo(origin, baseUrl.slice(origin.length));
  // The file first: whoever reads the start-up line finds it too.
  if (config.readyFile !== undefined && !(await readyFileWritten(config.readyFile, info, logger))) {
    await sandbox.close();
    young.stop();
    return 1;
  }
  logger.notice(startLine(info, version, mode, config), { version, mode, origin });
  logger.info(storeLine(config));
  if (config.postgresUrl !== undefined) for (const line of poolerNotes(config)) logger.info(`  ${line}`);
  if (config.upstream) {
    const key = config.upstreamKey ? 'its own --upstream-key' : "each caller's key";
    logger.info(`  upstream:  ${config.upstream} (proxy mode forwards there, with ${key})`);
  }
  const key = shownKey(config);
  const asKey = config.specs.length === 0 ? `Authorization: Bearer ${key}` : `${key}, sent as each spec's security says`;
  logger.info(`  API key:   ${key ? asKey : 'the first configured key (not shown)'}`);
  if (config.specs.length === 0) logger.info(`  try:       curl -H 'Authorization: Bearer ${key ?? '<API key>'}' ${baseUrl}/pets`);
  // Each spec given, where it is served: the same order as --spec, each under its servers path.
  config.specs.forEach((file, i) => logger.info(`  serving:   ${origin}${sandbox.bases[i] ?? ''} (${file})`));
  logger.info(`  health:    ${origin}/readyz   metrics: ${origin}/metrics`);
  for (const notice of sandbox.notices) logger.info(`  note:      ${notice}`);
  for (const warning of exposureNotices(config)) logger.warn(`  warning:   ${warning}`);
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
  // The spans of the last requests exported, within bounds: a collector out of reach does not hold the stop.
  await tracing?.close(TRACES_FLUSH_MS);
  young.stop();
  if (config.readyFile !== undefined) await removeReadyFile(config.readyFile).catch((error: unknown) => logger.error('cannot remove --ready-file', error));
  logger.info('stopped');
  logger.flush();
  return 0;
}
