import { stat } from 'node:fs/promises';
import type { Backend } from '../backend.js';
import type { Config } from '../../config/load.js';
import { Journal } from '../journal/journal.js';
import type { ResponseCheck } from '../journal/types.js';
import { Faults } from '../faults.js';
import type { Logger } from '../../kernel/logger.js';
import type { OperationSpec } from '../../openapi/spec.js';
import { FileCheckpoints } from './checkpoints.js';
import { storageFailure } from '../../kernel/store-errors.js';
import { memoryMode } from '../memory/mode.js';
import { openKeyPolicyOf } from '../open-key-policy.js';
import { Workspaces, type WorkspacesOptions } from './workspaces.js';
import { createFileItemStore } from './items.js';
import { byWorkspaceId } from '../items/by-workspace-id.js';

/**
 * The file-backed workspaces of a configuration (also used by the QA
 * commands working on the files, which remove nothing: only a serving
 * sandbox is given `openKeys`, the policy for open keys' workspaces).
 */
export function openWorkspaces(
  config: Config,
  logger: Logger,
  checkPet?: (pet: unknown) => string[],
  maxOpen = config.maxWorkspaces,
  openKeys?: WorkspacesOptions['openKeys'],
): Promise<Workspaces> {
  return Workspaces.open({
    dataFile: config.dataFile,
    defaultKey: config.apiKeys[0] as string,
    maxOpen,
    idleMs: config.workspaceIdleMs,
    ...(openKeys ? { openKeys } : {}),
    store: {
      seed: { seed: config.seed, count: config.count },
      compactAfter: config.compactAfter,
      quota: { pets: config.quotaPets, bytes: config.quotaBytes },
      warn: (message) => logger.warn(message),
      ...(checkPet ? { checkPet } : {}),
    },
  });
}

export interface FileBackendOptions {
  config: Config;
  logger: Logger;
  /** Problems of a stored pet (the spec's Pet schema), checked when a data file is read. */
  checkPet: (pet: unknown) => string[];
  /** What a journaled exchange broke of the spec. */
  checkResponse: ResponseCheck;
  operations: ReadonlyMap<string, OperationSpec>;
  /** Most workspaces open at once (the configured cap, lowered to fit the open-file limit). */
  maxOpen: number;
}

/**
 * The embedded backend: each workspace a lowdb file with its commit log
 * beside `--data`; the journal, faults and mode in this process. The
 * default workspace opens now, so a bad data file stops start-up with a
 * clear error.
 */
export async function openFileBackend({ config, logger, checkPet, checkResponse, operations, maxOpen }: FileBackendOptions): Promise<Backend> {
  const journal = new Journal(config.journalSize, config.journalMemory, checkResponse);
  // Made before the workspaces, whose removals clear them; `workspaces` is read only once requests are served.
  const faults = new Faults(operations, (key) => workspaces.idOf(key));
  const ids = { of: (key: string) => workspaces.ids.of(key), persist: () => workspaces.ids.persist() };
  const items = byWorkspaceId(
    createFileItemStore({ dataFile: config.dataFile, ids }),
    (key) => workspaces.idOf(key),
    (key) => workspaces.usedByItems(key),
  );
  const workspaces = await openWorkspaces(
    config,
    logger,
    checkPet,
    maxOpen,
    config.openKeys ? openKeyPolicy(config, logger, journal, faults, (id) => items.forget(id)) : undefined,
  );
  await workspaces
    .use(config.apiKeys[0] as string, () => undefined)
    .catch(async (error: unknown) => {
      await workspaces.close();
      throw error;
    });
  // The data file is accepted: its secret is written now (at best: a folder not writable yet keeps it in memory until then).
  await workspaces.ids.persist().catch(() => undefined);
  return {
    kind: 'file',
    workspaces,
    journal,
    faults,
    mode: memoryMode(config.mode),
    checkpoints: new FileCheckpoints(config.dataFile, { count: config.checkpointCount, bytes: config.checkpointBytes }),
    items,
    health: async () => {
      await stat(config.dataFile).catch((error: unknown) => {
        throw storageFailure(error, 'The data file cannot be reached');
      });
    },
    close: async () => {
      await items.close();
      await workspaces.close();
    },
  };
}

/**
 * With `--open-keys`: the workspaces of keys that are not configured are
 * kept within `--open-key-workspaces` and `--open-key-ttl`; a removed one's
 * journal, faults and items go with its files, and the removal is logged.
 */
function openKeyPolicy(config: Config, logger: Logger, journal: Journal, faults: Faults, forgetItems: (id: string) => void): WorkspacesOptions['openKeys'] {
  return openKeyPolicyOf(config, logger, 'with its files', (id) => {
    journal.clear(id);
    faults.clear(id);
    forgetItems(id);
  });
}
