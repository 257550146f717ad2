/**
 * `npm run verify` as a user runs it: child processes against a sandbox
 * started separately with the CLI (exit 0, its default workspace as it
 * was, also when verify is interrupted), against the broken Pet Store
 * (exit 1), and with bad arguments (exit 2).
 */
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { createControlClient } from '../../src/control/client.js';
import { KEY } from '../support/harness.js';
import { ROOT } from '../support/spawn.js';
import { documentedOutput, run, verify, verifyTargets, VERIFY_ENV as env } from '../support/verify-run.js';

const ESC = '\u001b';

/** The default workspace as the control plane answers it, as text: its export, checkpoints and faults. */
async function workspaceState(): Promise<{ export: string; checkpoints: string; faults: string }> {
  const control = createControlClient({ origin: origin(), adminToken: 'sandbox-admin', key: KEY });
  return {
    export: await control.text('exportWorkspace'),
    checkpoints: await control.text('listCheckpoints'),
    faults: await control.text('listFaults'),
  };
}

const targets = verifyTargets();
const origin = () => targets.origin;

describe('npm run verify', () => {
  it('passes a separately started sandbox: Dredd and Pact, exit 0, and leaves its default workspace byte for byte', async () => {
    const control = createControlClient({ origin: origin(), adminToken: 'sandbox-admin', key: KEY });
    await control.call('saveCheckpoint', { body: { name: 'before-verify' } });
    // The workspace's coverage from here on is verify's alone.
    await control.call('clearJournal');
    const before = await workspaceState();
    expect(JSON.parse(before.export).pets.length).toBeGreaterThan(7);
    const { code, out } = await verify('--target', `${origin()}/v1`, '--key', KEY, '--admin-url', `${origin()}`, '--admin-token', 'sandbox-admin');
    expect(await workspaceState()).toEqual(before);
    // The workspace is named by its id, never by the key: verify's output goes to CI logs.
    const { workspace } = await control.call('listFaults');
    expect(out).toMatch(new RegExp(`Workspace ${workspace} \\(of --key\\): saved in checkpoint 'verify-[^']+'; restored when verify ends`));
    expect(out).toMatch(new RegExp(`If verify is killed: .* checkpoint restore verify-\\S+ --url \\S+ --key <the API key of workspace ${workspace}>`));
    expect(out).not.toContain(KEY);
    expect(out).toContain('PASS  Workspace: restored as it was before the run');
    expect(out).toContain('PASS  Dredd: 9 of 9 transactions passed');
    expect(out).toMatch(/PASS {2}Pact: \d+ interactions of .*pet-store-web.* verified/);
    expect(out).toContain('Pact: verifying 1 pact file from');
    expect(out).not.toMatch(/\b1 \w+s\b|\(s\)/);
    // Its 401s were asked of the key's workspace: every documented answer is counted there.
    expect(out).toContain(`INFO  Coverage: 9 of 9 documented answers exercised (100%) in workspace ${workspace}`);
    expect(out).toContain('RESULT: PASS');
    expect(code, out).toBe(0);
    // Into a pipe: no colour codes (the Pact verifier's included) and no warning about a dependency's insides.
    expect(out).not.toContain(ESC);
    expect(out).not.toContain('padLevels');
    expect(out).not.toMatch(/\(node:\d+\) \w*Warning/);
    expect(out).not.toContain('util._extend');
    // docs/contract-testing.md shows the end of this very output (its workspace id aside).
    const documented = documentedOutput('Summary').replace(/workspace [0-9a-f]{16}/g, `workspace ${workspace}`);
    expect(out.slice(-documented.length)).toBe(documented);

    // The QA command reads the same counts: a threshold holds after a full verify.
    const coverage = await run(process.execPath, ['--import', 'tsx', 'src/bin.ts', 'coverage', '--url', origin(), '--key', KEY, '--fail-under', '100']);
    expect(JSON.parse(coverage.out)).toMatchObject({ workspace, documented: { answers: 9, exercised: 9, percent: 100 }, threshold: { met: true } });
    expect(coverage.code, coverage.out).toBe(0);
  }, 120_000);

  it('keeps the colours when FORCE_COLOR asks for them', async () => {
    const args = ['--target', `${origin()}/v1`, '--key', KEY, '--admin-url', `${origin()}`, '--admin-token', 'sandbox-admin'];
    const { code, out } = await run('npm', ['run', '--silent', 'verify', '--', ...args], { FORCE_COLOR: '1' });
    expect(code, out).toBe(0);
    expect(out).toContain(ESC);
  }, 120_000);

  it('restores the workspace from memory when the sandbox has no room for its checkpoint', async () => {
    const control = createControlClient({ origin: origin(), adminToken: 'sandbox-admin', key: KEY });
    const { checkpoints, limits } = await control.call('listCheckpoints');
    const fill = Array.from({ length: limits.count - checkpoints.length }, (_, i) => `fill-${i}`);
    try {
      for (const name of fill) await control.call('saveCheckpoint', { body: { name } });
      const before = await workspaceState();
      const { code, out } = await verify('--target', `${origin()}/v1`, '--key', KEY, '--admin-url', `${origin()}`, '--admin-token', 'sandbox-admin');
      expect(await workspaceState()).toEqual(before);
      expect(out).toContain(`Workspace ${(await control.call('listFaults')).workspace} (of --key): saved in memory`);
      expect(out).not.toContain(KEY);
      expect(code, out).toBe(0);
    } finally {
      for (const name of fill) await control.send('DELETE', `/checkpoints/${name}`);
    }
  }, 120_000);

  it('restores the workspace when interrupted (SIGINT) in the middle of the run, and exits 130', async () => {
    const control = createControlClient({ origin: origin(), adminToken: 'sandbox-admin', key: KEY });
    // Holds Dredd's listPets 200 long enough to interrupt it: the workspace has been changed by then.
    const { id } = await control.call('addFault', { body: { operationId: 'listPets', latencyMs: 15_000 } });
    const before = await workspaceState();
    const args = ['--target', `${origin()}/v1`, '--key', KEY, '--admin-url', origin(), '--admin-token', 'sandbox-admin'];
    const child = spawn(process.execPath, ['--import', 'tsx', 'contracts/verify.ts', ...args], { cwd: ROOT, env });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const closed = new Promise<number | null>((resolve) => child.once('close', resolve));
    await expect.poll(async () => (await workspaceState()).export, { timeout: 60_000, interval: 200 }).not.toBe(before.export);
    child.kill('SIGINT');
    expect(await closed, out).toBe(130);
    const after = await workspaceState();
    expect(after.export).toBe(before.export);
    expect(after.checkpoints).toBe(before.checkpoints);
    expect(JSON.parse(after.faults).faults.map((f: { id: number }) => f.id)).toEqual([id]);
    await control.call('deleteFault', { path: { faultId: id } });
  }, 120_000);

  it('runs nothing when the workspace cannot be saved (a key the sandbox does not know): exit 1', async () => {
    const before = await workspaceState();
    const { code, out } = await verify('--target', `${origin()}/v1`, '--key', 'no-such-key', '--admin-url', origin());
    expect(out).toContain('Workspace of --key: could not be saved');
    expect(out).not.toContain('no-such-key');
    expect(out).toContain('FAIL  Workspace: could not be saved, so nothing was run');
    expect(out).not.toContain('Dredd:');
    expect(code, out).toBe(1);
    expect(await workspaceState()).toEqual(before);
  }, 60_000);

  it('fails the broken Pet Store, names what broke, skips Pact with a notice: exit 1', async () => {
    const { code, out } = await verify('--target', targets.broken.baseUrl, '--key', KEY);
    const notice = out.indexOf('Changes: Dredd creates pets with --key');
    expect(notice, out).toBeGreaterThan(-1);
    expect(notice, 'said before Dredd runs').toBeLessThan(out.indexOf('Dredd: spec/openapi.yaml'));
    expect(out).toContain('FAIL  Dredd: 3 of 9 transactions passed, 6 failed');
    expect(out).toContain('id must be integer');
    expect(out).toContain('Pact: SKIPPED');
    expect(out).toContain('RESULT: FAIL');
    expect(out).not.toContain(KEY);
    expect(code, out).toBe(1);
  }, 120_000);

  it('rejects bad usage with exit 2', async () => {
    const { code, out } = await verify('--target', `${origin()}/v2`, '--key', KEY);
    expect(out).toContain('--target must be an http(s) URL ending in /v1');
    expect(code).toBe(2);
    expect((await verify('--target', `${origin()}/v1`)).code).toBe(2);
  }, 60_000);
});
