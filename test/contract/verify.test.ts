/**
 * `npm run verify` as a user runs it: child processes against a sandbox
 * started separately with the CLI (exit 0), against the
 * broken Pet Store (exit 1), and with bad arguments (exit 2).
 */
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEY, tempDir } from '../support/harness.js';
import { killSandbox, ROOT, spawnSandbox, stopSandbox, type ChildSandbox } from '../support/spawn.js';
import { startBrokenServer, type BrokenServer } from '../support/broken-server.js';

// Neither NO_COLOR nor FORCE_COLOR: the output goes to a pipe, and that alone must keep it plain.
const { NO_COLOR: _noColor, FORCE_COLOR: _forceColor, ...inherited } = process.env;
const env = { ...inherited, PACT_DO_NOT_TRACK: 'true' };

/** Runs a command to its end; resolves with its exit code and output. */
function run(command: string, args: string[], extra: Record<string, string> = {}): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: ROOT, env: { ...env, ...extra } });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, out }));
  });
}

const verify = (...args: string[]) => run('npm', ['run', '--silent', 'verify', '--', ...args]);
const ESC = '\u001b';

let dir: string;
let sandbox: ChildSandbox | undefined;
let broken: BrokenServer;
const origin = () => (sandbox as ChildSandbox).origin;

beforeAll(async () => {
  dir = tempDir();
  sandbox = await spawnSandbox(join(dir, 'db.json'));
  broken = await startBrokenServer();
}, 60_000);

afterAll(async () => {
  await broken?.close();
  if (sandbox) await stopSandbox(sandbox).finally(() => killSandbox(sandbox));
  rmSync(dir, { recursive: true, force: true });
});

describe('npm run verify', () => {
  it('passes a separately started sandbox: Dredd and Pact, exit 0', async () => {
    const { code, out } = await verify('--target', `${origin()}/v1`, '--key', KEY, '--admin-url', `${origin()}`, '--admin-token', 'sandbox-admin');
    expect(out).toContain('PASS  Dredd: 9 of 9 transactions passed');
    expect(out).toMatch(/PASS {2}Pact: \d+ interaction\(s\) of .*pet-store-web.* verified/);
    expect(out).toContain('RESULT: PASS');
    expect(code, out).toBe(0);
    // Into a pipe: no colour codes (the Pact verifier's included) and no warning about a dependency's insides.
    expect(out).not.toContain(ESC);
    expect(out).not.toContain('padLevels');
    expect(out).not.toMatch(/\(node:\d+\) Warning/);
  }, 120_000);

  it('keeps the colours when FORCE_COLOR asks for them', async () => {
    const args = ['--target', `${origin()}/v1`, '--key', KEY, '--admin-url', `${origin()}`, '--admin-token', 'sandbox-admin'];
    const { code, out } = await run('npm', ['run', '--silent', 'verify', '--', ...args], { FORCE_COLOR: '1' });
    expect(code, out).toBe(0);
    expect(out).toContain(ESC);
  }, 120_000);

  it('fails the broken Pet Store, names what broke, skips Pact with a notice: exit 1', async () => {
    const { code, out } = await verify('--target', broken.baseUrl, '--key', KEY);
    expect(out).toContain('FAIL  Dredd: 3 of 9 transactions passed, 6 failed');
    expect(out).toContain('id must be integer');
    expect(out).toContain('Pact: SKIPPED');
    expect(out).toContain('RESULT: FAIL');
    expect(code, out).toBe(1);
  }, 120_000);

  it('rejects bad usage with exit 2', async () => {
    const { code, out } = await verify('--target', `${origin()}/v2`, '--key', KEY);
    expect(out).toContain('--target must be an http(s) URL ending in /v1');
    expect(code).toBe(2);
    expect((await verify('--target', `${origin()}/v1`)).code).toBe(2);
  }, 60_000);
});
