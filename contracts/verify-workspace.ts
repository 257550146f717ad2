/**
 * What `verify` says about the workspace it works in: saved before the
 * run (and where), restored after it (or what was left behind). It names
 * the workspace by its id, never by the key: verify's output goes to CI
 * logs, which many people can read.
 */
import type { ControlClient } from '../src/control/client.js';
import type { Outcome } from './verify-report.js';
import { guardWorkspace, type WorkspaceGuard } from './workspace-guard.js';

/**
 * Saves the key's workspace before provider states replace its data;
 * null when it cannot be saved (then nothing runs).
 */
export async function saveWorkspace(control: ControlClient, adminUrl: string, cli: string): Promise<WorkspaceGuard | null> {
  try {
    const guard = await guardWorkspace(control);
    const where = guard.checkpoint ? `checkpoint '${guard.checkpoint}'` : 'memory (the sandbox keeps no checkpoint for it)';
    console.log(`Workspace ${guard.workspace} (of --key): saved in ${where}; restored when verify ends.`);
    if (guard.checkpoint)
      console.log(`  If verify is killed: ${cli} checkpoint restore ${guard.checkpoint} --url ${adminUrl} --key <the API key of workspace ${guard.workspace}>`);
    console.log('');
    return guard;
  } catch (error) {
    console.log(`Workspace of --key: could not be saved: ${(error as Error).message}\n`);
    return null;
  }
}

/** Puts the workspace back; a failure is a failed outcome, with what was left behind. */
export async function restoreWorkspace(guard: WorkspaceGuard): Promise<Outcome> {
  try {
    await guard.restore();
    return { tool: 'Workspace', ok: true, line: 'restored as it was before the run' };
  } catch (error) {
    const kept = guard.checkpoint ? ` (it is kept in checkpoint '${guard.checkpoint}')` : '';
    return { tool: 'Workspace', ok: false, line: `could not be restored${kept}: ${(error as Error).message}` };
  }
}
