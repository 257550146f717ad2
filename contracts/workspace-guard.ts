/**
 * Keeps `verify` from changing data it was not given: the workspace its
 * key names is saved before the run and put back after it, also when the
 * run is interrupted. The provider states must change the data of the
 * workspace the verified requests hit, and those carry the key, so the run
 * cannot move to a workspace of its own where only that key is configured.
 */
import { ControlError, type ControlClient } from '../src/control/client.js';
import type { ControlResult } from '../src/control/routes.js';

/** The key's workspace as it was before the run, and how to put it back. */
export interface WorkspaceGuard {
  /** The workspace's id as the control plane names it (a keyed hash of the key): what verify prints, never the key. */
  readonly workspace: string;
  /** The checkpoint holding the workspace in the sandbox itself, when the sandbox keeps checkpoints. */
  readonly checkpoint: string | undefined;
  /** Puts back the data and removes the faults the run added; once, however often it is called. */
  restore(): Promise<void>;
}

/**
 * A checkpoint name of this run. Saved in the sandbox, it outlives a `verify`
 * that is killed before it can restore, and says which run it belongs to.
 */
export const runCheckpointName = (now = new Date()): string => `verify-${now.toISOString().replace(/[:.]/g, '-')}-${process.pid}`;

/**
 * Saves the workspace a verification is about to change (provider states
 * replace its pets, Dredd adds some): as a checkpoint in the sandbox, so a
 * killed run leaves the data recoverable, and as an export in memory for a
 * sandbox that keeps no checkpoints or has no room for one. The faults
 * listed now are kept; any other is the run's (a provider state's one-time
 * 401) and is removed on restore.
 */
export async function guardWorkspace(control: ControlClient): Promise<WorkspaceGuard> {
  const exported = await control.call('exportWorkspace');
  const listed = await control.call('listFaults');
  const faultsBefore = new Set(listed.faults.map((fault) => fault.id));
  const checkpoint = await saveCheckpoint(control, runCheckpointName());
  let restoring: Promise<void> | undefined;
  const restore = async () => {
    await putBack(control, checkpoint, exported);
    for (const fault of (await control.call('listFaults')).faults)
      if (!faultsBefore.has(fault.id)) await control.call('deleteFault', { path: { faultId: fault.id } });
  };
  return {
    workspace: listed.workspace,
    checkpoint,
    restore: () => (restoring ??= restore()),
  };
}

/** Saves a checkpoint; undefined when the sandbox keeps none or is at its limit (the export in memory serves then). */
async function saveCheckpoint(control: ControlClient, name: string): Promise<string | undefined> {
  try {
    await control.call('saveCheckpoint', { body: { name } });
    return name;
  } catch (error) {
    // 501: the storage keeps no checkpoints; 507: the workspace is at its limit (count, bytes); 4xx: a clash of names.
    if (error instanceof ControlError && error.status !== undefined && (error.status < 500 || error.status === 501 || error.status === 507)) return undefined;
    throw error;
  }
}

/** Restores the checkpoint (byte for byte, next id included) and deletes it; else loads the export kept in memory. */
async function putBack(control: ControlClient, checkpoint: string | undefined, exported: ControlResult<'exportWorkspace'>): Promise<void> {
  if (checkpoint === undefined) {
    await control.call('loadFixture', { body: { mode: 'replace', pets: exported.pets, nextId: exported.nextId } });
    return;
  }
  await control.call('restoreCheckpoint', { path: { name: checkpoint } });
  await control.call('deleteCheckpoint', { path: { name: checkpoint } });
}

/**
 * Runs `restore` when the process is interrupted (Ctrl-C, a CI job's
 * SIGTERM, a closed terminal), then exits as the signal would have; the
 * returned function removes the handlers.
 */
export function restoreOnSignal(restore: () => Promise<void>, report: (problem: string) => void): () => void {
  const codes = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 } as const;
  const handlers = Object.entries(codes).map(([signal, code]) => {
    const handler = () => {
      restore().then(
        () => process.exit(code),
        (error: unknown) => {
          report((error as Error).message);
          process.exit(code);
        },
      );
    };
    // `on`, not `once`: a second Ctrl-C while the restore runs must not cut it short (each call has a timeout).
    process.on(signal, handler);
    return () => process.off(signal, handler);
  });
  return () => handlers.forEach((off) => off());
}
