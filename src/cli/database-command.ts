import type { Workspace } from '../backend.js';
import type { Config } from '../config.js';
import { silentLogger } from '../logger.js';
import { loadSpec } from '../openapi/spec.js';
import { createValidators, type Validators } from '../openapi/validate.js';
import { openPostgresBackend } from '../store/postgres/backend.js';
import { describeTarget } from '../store/postgres/pool.js';
import type { CommandIo } from './commands.js';

/** What a QA command on one workspace is given: the configuration, its options, where to print, the validators, what it works on. */
export interface WorkspaceCommandContext {
  config: Config;
  extra: Record<string, string | boolean | undefined>;
  io: CommandIo;
  validators: Validators;
  file: string;
}

/**
 * Runs a QA command (seed, reset, load, export) on a workspace of the
 * PostgreSQL database of `--store`, as a sandbox on it would, without
 * changing the shared mode.
 */
export async function onDatabase<T>(
  config: Config,
  extra: Record<string, string | boolean | undefined>,
  io: CommandIo,
  run: (context: WorkspaceCommandContext, workspace: Workspace) => Promise<T>,
): Promise<T> {
  const url = config.postgresUrl as string;
  const spec = loadSpec();
  const say = (t: string) => io.err(t);
  const logger = { ...silentLogger, info: say, warn: say, error: say };
  const backend = await openPostgresBackend({ config, url, logger, checkResponse: () => true, operations: spec.operations, claimMode: false });
  try {
    const key = typeof extra.key === 'string' ? extra.key : (config.apiKeys[0] as string);
    const context = { config, extra, io, validators: createValidators(spec), file: describeTarget(url) };
    return await backend.workspaces.use(key, (ws) => run(context, ws));
  } finally {
    await backend.close();
  }
}
