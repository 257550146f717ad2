/** `npm run verify` as a user runs it: a child process in the repository, its output collected. */
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { startBrokenServer, type BrokenServer } from './broken-server.js';
import { tempDir } from './harness.js';
import { killSandbox, ROOT, spawnSandbox, stopSandbox, type ChildSandbox } from './spawn.js';

// Neither NO_COLOR nor FORCE_COLOR: the output goes to a pipe, and that alone must keep it plain.
const { NO_COLOR: _noColor, FORCE_COLOR: _forceColor, ...inherited } = process.env;

/** The environment verify runs in: the test's own, without colour settings, Pact's tracking off. */
export const VERIFY_ENV = { ...inherited, PACT_DO_NOT_TRACK: 'true' };

/** Runs a command in the repository to its end; resolves with its exit code and output (stdout and stderr, interleaved). */
export function run(command: string, args: string[], extra: Record<string, string> = {}): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: ROOT, env: { ...VERIFY_ENV, ...extra } });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, out }));
  });
}

/** `npm run --silent verify -- ...args`. */
export const verify = (...args: string[]) => run('npm', ['run', '--silent', 'verify', '--', ...args]);

/** What verify runs against in a test file: a sandbox started with the CLI, the broken Pet Store, and a folder for files. */
export interface VerifyTargets {
  readonly dir: string;
  /** The sandbox's origin. */
  readonly origin: string;
  readonly broken: BrokenServer;
}

/** Starts the targets before the file's tests (a sandbox on a data file in a new folder, the broken Pet Store) and stops them after. */
export function verifyTargets(): VerifyTargets {
  let dir: string | undefined;
  let sandbox: ChildSandbox | undefined;
  let broken: BrokenServer | undefined;
  beforeAll(async () => {
    dir = tempDir();
    sandbox = await spawnSandbox(join(dir, 'db.json'));
    broken = await startBrokenServer();
  }, 60_000);
  afterAll(async () => {
    await broken?.close();
    if (sandbox) await stopSandbox(sandbox).finally(() => killSandbox(sandbox));
    if (dir) rmSync(dir, { recursive: true, force: true });
  });
  return {
    get dir() {
      return dir as string;
    },
    get origin() {
      return (sandbox as ChildSandbox).origin;
    },
    get broken() {
      return broken as BrokenServer;
    },
  };
}
