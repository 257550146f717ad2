/**
 * The sandbox as a real child process (`src/bin.ts` through tsx), on
 * 127.0.0.1 and a port the OS picks, for tests that must kill it, limit it
 * (`prlimit`) or run it as another user (`setpriv`).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** How a child process ended. */
export interface Ended {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface ChildSandbox {
  child: ChildProcess;
  /** e.g. `http://127.0.0.1:41234` */
  origin: string;
  /** Resolves (with the signal, if any) once the process is gone and reaped. */
  exited: Promise<NodeJS.Signals | null>;
  /** Resolves with the exit code and signal once the process is gone. */
  ended: Promise<Ended>;
  /** Everything it printed, stdout and stderr interleaved. */
  output(): string;
  /** What it printed on stderr only. */
  stderr(): string;
}

export interface SpawnOptions {
  /**
   * A command the sandbox runs under, e.g. `['prlimit', '--nofile=256:256', '--']`
   * or `setpriv ...`. It must exec node (both do), so `child.pid` is the sandbox.
   */
  wrapper?: string[];
  /** Extra environment variables (e.g. TMPDIR for a user who cannot write the default one). */
  env?: Record<string, string>;
}

/** The sandbox exited before it listened: its exit code and what it printed. */
export class SandboxExit extends Error {
  constructor(
    readonly ended: Ended,
    readonly out: string,
    readonly err: string,
  ) {
    super(`the sandbox exited with code ${ended.code}${ended.signal ? ` (${ended.signal})` : ''}:\n${out}`);
    this.name = 'SandboxExit';
  }
}

/**
 * Starts `src/bin.ts` on `dataFile` with `--port 0`; resolves once it prints
 * its address, rejects with a SandboxExit if it exits first.
 */
export async function spawnSandbox(dataFile: string, args: string[] = [], options: SpawnOptions = {}): Promise<ChildSandbox> {
  const [command = process.execPath, ...prefix] = options.wrapper ?? [];
  const node = options.wrapper ? [process.execPath] : [];
  const child = spawn(command, [...prefix, ...node, '--import', 'tsx', 'src/bin.ts', '--port', '0', '--data', dataFile, ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NODE_ENV: 'test', ...options.env },
  });
  let output = '';
  let errors = '';
  child.stderr.on('data', (chunk: Buffer) => {
    output += chunk.toString();
    errors += chunk.toString();
  });
  const ended = new Promise<Ended>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const exited = ended.then((e) => e.signal);
  const origin = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the sandbox did not start in time:\n${output}`));
    }, 60_000);
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const found = /listening on (http:\/\/[^\s/]+)\/v1/.exec(output)?.[1];
      if (found) {
        clearTimeout(timer);
        resolve(found);
      }
    });
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    // 'close', not 'exit': by then stdout and stderr are drained, so the message is whole.
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      reject(new SandboxExit({ code, signal }, output, errors));
    });
  });
  return { child, origin, exited, ended, output: () => output, stderr: () => errors };
}

/** Stops it gracefully (SIGTERM: flush, release the lock), SIGKILL after 10 s; resolves with how it ended. */
export async function stopSandbox(sandbox: ChildSandbox): Promise<Ended> {
  if (sandbox.child.exitCode !== null || sandbox.child.signalCode !== null) return sandbox.ended;
  sandbox.child.kill('SIGTERM');
  const timer = setTimeout(() => sandbox.child.kill('SIGKILL'), 10_000);
  const ended = await sandbox.ended;
  clearTimeout(timer);
  return ended;
}

/** For `finally` blocks: kills it (SIGKILL) unless it is already gone, and waits until it is. */
export async function killSandbox(sandbox: ChildSandbox | undefined): Promise<void> {
  if (!sandbox) return;
  if (sandbox.child.exitCode === null && sandbox.child.signalCode === null) sandbox.child.kill('SIGKILL');
  await sandbox.ended;
}
