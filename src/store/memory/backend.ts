import type { Backend, WorkspaceStore } from '../backend.js';
import type { Config } from '../../config/load.js';
import { Journal } from '../journal/journal.js';
import type { ResponseCheck } from '../journal/types.js';
import { Faults } from '../faults.js';
import type { Logger } from '../../kernel/logger.js';
import type { OperationSpec } from '../../openapi/spec.js';
import { openKeyPolicyOf } from '../open-key-policy.js';
import { MemoryCheckpoints } from './checkpoints.js';
import { memoryMode } from './mode.js';
import { MemoryWorkspaces } from './workspaces.js';
import { createMemoryItemStore } from './items.js';
import { byWorkspaceId } from '../items/by-workspace-id.js';

export interface MemoryBackendOptions {
  config: Config;
  logger: Logger;
  /** What a journaled exchange broke of the spec. */
  checkResponse: ResponseCheck;
  operations: ReadonlyMap<string, OperationSpec>;
  /** The secret workspace ids are keyed with; default: a new random one. */
  secret?: Uint8Array;
  /** The workspaces as served, made of the memory store's: kept elsewhere too (IndexedDB in a browser); default the memory store's own. */
  keep?: (workspaces: MemoryWorkspaces) => WorkspaceStore;
}

/**
 * The memory store (`--store memory`): workspaces, checkpoints, journal,
 * faults and mode in this process only. Nothing is written anywhere: a
 * write that succeeded is kept for the life of the process, and gone when
 * it stops. It needs no file system, so it can run wherever the engine runs.
 */
export function openMemoryBackend({ config, logger, checkResponse, operations, secret, keep }: MemoryBackendOptions): Backend {
  const journal = new Journal(config.journalSize, config.journalMemory, checkResponse);
  const checkpoints = new MemoryCheckpoints({ count: config.checkpointCount, bytes: config.checkpointBytes });
  // Made before the workspaces, whose removals clear them; `workspaces` is read only once requests are served.
  const faults = new Faults(operations, (key) => workspaces.idOf(key));
  const items = byWorkspaceId(
    createMemoryItemStore(),
    (key) => workspaces.idOf(key),
    (key) => workspaces.usedByItems(key),
  );
  const workspaces = new MemoryWorkspaces({
    seed: { seed: config.seed, count: config.count },
    quota: { pets: config.quotaPets, bytes: config.quotaBytes },
    maxOpen: config.maxWorkspaces,
    ...(secret ? { secret } : {}),
    ...(config.openKeys ?
      {
        openKeys: openKeyPolicyOf(config, logger, 'from memory', (id) => {
          journal.clear(id);
          faults.clear(id);
          checkpoints.drop(id);
          items.forget(id);
        }),
      }
    : {}),
  });
  const served = keep ? keep(workspaces) : workspaces;
  return {
    kind: 'memory',
    workspaces: served,
    journal,
    faults,
    mode: memoryMode(config.mode),
    checkpoints,
    items,
    // Memory always answers.
    health: () => Promise.resolve(),
    close: async () => {
      await items.close();
      await served.close();
    },
  };
}
