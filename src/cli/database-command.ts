import type { Backend, WorkspaceData } from '../store/backend.js';
import type { Config } from '../config/load.js';
import { silentLogger } from '../kernel/logger.js';
import { loadSpec } from '../openapi/load-spec.js';
import { createValidators, type Validators } from '../openapi/validate.js';
import { openPostgresBackend } from '../store/postgres/backend.js';
import { describeDatabase } from '../store/postgres/pool.js';
import { checkpointsOnStorage } from './checkpoint-commands.js';
import type { CommandIo } from './command-io.js';

/** What a QA command on one workspace is given: the configuration, its options, where to print, the validators, what it works on. */
export interface WorkspaceCommandContext {
  config: Config;
  extra: Record<string, string | boolean | undefined>;
  io: CommandIo;
  validators: Validators;
  /** What the command worked on, as its answer names it: a workspace's data file, or the database (never its password). */
  where: { file: string } | { database: string; user?: string };
}

/** Runs `run` on the PostgreSQL backend of `--store`, as a sandbox on it would, without changing the shared mode; closed after. */
async function withDatabase<T>(config: Config, io: CommandIo, run: (backend: Backend) => Promise<T>): Promise<T> {
  const say = (t: string) => io.err(t);
  const logger = { ...silentLogger, info: say, warn: say, error: say };
  const url = config.postgresUrl as string;
  const backend = await openPostgresBackend({
    config,
    url,
    logger,
    checkResponse: () => [],
    operations: loadSpec().operations,
    claimMode: false,
    removeOpenKeys: false,
    keepReads: false,
  });
  try {
    return await run(backend);
  } finally {
    await backend.close();
  }
}

/** Runs a QA command (seed, reset, load, export) on a workspace of the PostgreSQL database of `--store`. */
export function onDatabase<T>(
  config: Config,
  extra: Record<string, string | boolean | undefined>,
  io: CommandIo,
  run: (context: WorkspaceCommandContext, workspace: WorkspaceData) => Promise<T>,
): Promise<T> {
  return withDatabase(config, io, (backend) => {
    const key = typeof extra.key === 'string' ? extra.key : (config.apiKeys[0] as string);
    const context = { config, extra, io, validators: createValidators(loadSpec()), where: describeDatabase(config.postgresUrl as string) };
    return backend.workspaces.use(key, (ws) => run(context, ws));
  });
}

/** `checkpoint` and `copy` on the database of `--store`: the control plane's own handlers over its workspaces and checkpoints. */
export function checkpointsOnDatabase(
  command: 'checkpoint' | 'copy',
  operands: readonly string[],
  context: { config: Config; extra: Record<string, string | boolean | undefined>; io: CommandIo; fail: (message: string) => Error },
): Promise<string> {
  return withDatabase(context.config, context.io, ({ workspaces, checkpoints }) => {
    if (!checkpoints) throw context.fail('This storage keeps no checkpoints.');
    return checkpointsOnStorage(command, operands, context, { workspaces, checkpoints });
  });
}
