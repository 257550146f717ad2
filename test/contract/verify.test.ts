/**
 * `npm run verify` as a user runs it: child processes against a sandbox
 * started separately with the CLI on another port (exit 0), against the
 * broken Pet Store (exit 1), and with bad arguments (exit 2).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEY, tempDir } from '../support/harness.js';
import { startBrokenServer, type BrokenServer } from '../support/broken-server.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const env = { ...process.env, PACT_DO_NOT_TRACK: 'true', NO_COLOR: '1' };

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.once('error', reject);
  });
}

/** Runs a command to its end; resolves with its exit code and output. */
function run(command: string, args: string[]): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: ROOT, env });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, out }));
  });
}

const verify = (...args: string[]) => run('npm', ['run', '--silent', 'verify', '--', ...args]);

let dir: string;
let port: number;
let sandbox: ChildProcess;
let broken: BrokenServer;

beforeAll(async () => {
  dir = tempDir();
  port = await freePort();
  // Its own process group: npx and tsx do not pass a signal on to the server they start.
  sandbox = spawn('npx', ['tsx', 'src/bin.ts', '--port', String(port), '--data', join(dir, 'db.json')], { cwd: ROOT, env, detached: true });
  await new Promise<void>((resolve, reject) => {
    let out = '';
    sandbox.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('listening on')) resolve();
    });
    sandbox.stderr?.on('data', (chunk: Buffer) => (out += chunk.toString()));
    sandbox.once('exit', (code) => reject(new Error(`the sandbox exited (${code}) before listening:\n${out}`)));
  });
  broken = await startBrokenServer();
}, 60_000);

afterAll(async () => {
  await broken?.close();
  if (sandbox?.pid !== undefined && sandbox.exitCode === null) {
    const exited = new Promise((resolve) => sandbox.once('exit', resolve));
    process.kill(-sandbox.pid, 'SIGTERM');
    await exited;
  }
  rmSync(dir, { recursive: true, force: true });
});

describe('npm run verify', () => {
  it('passes a separately started sandbox: Dredd and Pact, exit 0', async () => {
    const { code, out } = await verify('--target', `http://127.0.0.1:${port}/v1`, '--key', KEY, '--admin-url', `http://127.0.0.1:${port}`, '--admin-token', 'sandbox-admin');
    expect(out).toContain('PASS  Dredd: 8 of 8 transactions passed');
    expect(out).toMatch(/PASS {2}Pact: \d+ interaction\(s\) of .*pet-store-web.* verified/);
    expect(out).toContain('RESULT: PASS');
    expect(code, out).toBe(0);
  }, 120_000);

  it('fails the broken Pet Store, names what broke, skips Pact with a notice: exit 1', async () => {
    const { code, out } = await verify('--target', broken.baseUrl, '--key', KEY);
    expect(out).toContain('FAIL  Dredd: 2 of 8 transactions passed, 6 failed');
    expect(out).toContain('id must be integer');
    expect(out).toContain('Pact: SKIPPED');
    expect(out).toContain('RESULT: FAIL');
    expect(code, out).toBe(1);
  }, 120_000);

  it('rejects bad usage with exit 2', async () => {
    const { code, out } = await verify('--target', `http://127.0.0.1:${port}/v2`, '--key', KEY);
    expect(out).toContain('--target must be an http(s) URL ending in /v1');
    expect(code).toBe(2);
    expect((await verify('--target', `http://127.0.0.1:${port}/v1`)).code).toBe(2);
  }, 60_000);
});
