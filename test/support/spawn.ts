/**
 * The CLI and the sandbox as real child processes (`src/bin.ts` through
 * tsx's loader, one process per run), and the one reader of the sandbox's
 * start-up line. The sandbox listens on 127.0.0.1 and a port the OS picks;
 * it can run under a wrapper (`prlimit`, `setpriv`) to be limited or run as
 * another user, and tests may kill it.
 */
import { spawn, type ChildProcess, type SpawnOptions as NodeSpawnOptions } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BIN = fileURLToPath(new URL('../../src/bin.ts', import.meta.url));
/** Node with tsx's loader: one process per run (the tsx CLI would start a second). */
const WITH_TSX = ['--import', 'tsx'];

/** The start-up line, `Pet Store sandbox 1.0.0 (stateful mode) listening on http://127.0.0.1:4010/v1; docs …` (at every log level but silent): its origin. */
export const START_LINE = /listening on (http:\/\/[^\s/]+)\/v1/;

/** How a child process ended. */
export interface Ended {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** The process exited before it printed its start-up line: its exit code and what it printed. */
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

/** What a child printed so far: stdout and stderr interleaved, and each alone. */
export interface Output {
  all(): string;
  stdout(): string;
  stderr(): string;
}

/** Starts collecting what `child` prints (before anything else listens, so no chunk is missed). */
export function collectOutput(child: ChildProcess): Output {
  let all = '';
  let out = '';
  let errors = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    all += chunk.toString();
    out += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    all += chunk.toString();
    errors += chunk.toString();
  });
  return { all: () => all, stdout: () => out, stderr: () => errors };
}

/**
 * Resolves with the origin of the start-up line once `child` prints it;
 * rejects with a SandboxExit if the child ends first, or kills it after
 * `timeoutMs`.
 */
export function awaitStartLine(child: ChildProcess, output: Output, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the process did not start in time:\n${output.all()}`));
    }, timeoutMs);
    const check = () => {
      const origin = START_LINE.exec(output.all())?.[1];
      if (origin === undefined) return;
      clearTimeout(timer);
      child.stdout?.off('data', check);
      resolve(origin);
    };
    child.stdout?.on('data', check);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    // 'close', not 'exit': by then stdout and stderr are drained, so the message is whole.
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      reject(new SandboxExit({ code, signal }, output.all(), output.stderr()));
    });
  });
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the real CLI to completion. */
export function runCli(args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  return runToEnd([...WITH_TSX, BIN, ...args], { cwd: ROOT, env: { ...process.env, ...env } });
}

/** Runs Node on `args` to its end, collecting its output. */
export function runToEnd(args: string[], options: Omit<NodeSpawnOptions, 'stdio'>): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

export interface ChildSandbox {
  child: ChildProcess;
  /** e.g. `http://127.0.0.1:41234` */
  origin: string;
  /** e.g. `http://127.0.0.1:41234/v1` */
  baseUrl: string;
  /** Resolves (with the signal, if any) once the process is gone and reaped. */
  exited: Promise<NodeJS.Signals | null>;
  /** Resolves with the exit code and signal once the process is gone. */
  ended: Promise<Ended>;
  /** Everything it printed, stdout and stderr interleaved. */
  output(): string;
  /** What it printed on stdout only (the log lines below warn). */
  stdout(): string;
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
  /** Options for Node itself, e.g. `--max-old-space-size=64`. */
  nodeOptions?: string[];
  /** A bundle of the sandbox (as `npm run build` makes) run by Node instead of `src/bin.ts` through tsx. */
  bin?: string;
  /** Hears of the process as soon as it is spawned, before it listens (to kill it during start-up). */
  onChild?: (child: ChildProcess) => void;
  /** Another copy of the checkout to run `src/bin.ts` from, through its tsx (e.g. one that the wrapper's user can read). */
  checkout?: string;
}

/**
 * Starts the sandbox on `dataFile` with `--port 0`; resolves once it prints
 * its start-up line, rejects with a SandboxExit if it exits first.
 */
export async function spawnSandbox(dataFile: string, args: string[] = [], options: SpawnOptions = {}): Promise<ChildSandbox> {
  const [command = process.execPath, ...prefix] = options.wrapper ?? [];
  const node = options.wrapper ? [process.execPath] : [];
  const entry = options.bin ? [options.bin] : [...WITH_TSX, options.checkout ? join(options.checkout, 'src', 'bin.ts') : BIN];
  const child = spawn(command, [...prefix, ...node, ...(options.nodeOptions ?? []), ...entry, '--port', '0', '--data', dataFile, ...args], {
    cwd: options.checkout ?? ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NODE_ENV: 'test', ...options.env },
  });
  options.onChild?.(child);
  const output = collectOutput(child);
  const ended = new Promise<Ended>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const origin = await awaitStartLine(child, output, 60_000);
  return {
    child,
    origin,
    baseUrl: `${origin}/v1`,
    exited: ended.then((e) => e.signal),
    ended,
    output: output.all,
    stdout: output.stdout,
    stderr: output.stderr,
  };
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
