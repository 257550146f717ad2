/**
 * The sandbox as a real child process (`src/bin.ts` through tsx), on
 * 127.0.0.1 and a port the OS picks, for tests that must kill it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface ChildSandbox {
  child: ChildProcess;
  /** e.g. `http://127.0.0.1:41234` */
  origin: string;
  /** Resolves (with the signal, if any) once the process is gone and reaped. */
  exited: Promise<NodeJS.Signals | null>;
  output(): string;
}

/**
 * Starts `src/bin.ts` on `dataFile` with `--port 0`; resolves once it prints its address.
 * `nodeOptions` go to Node itself, e.g. `--max-old-space-size=64`.
 */
export async function spawnSandbox(dataFile: string, args: string[] = [], nodeOptions: string[] = []): Promise<ChildSandbox> {
  const child = spawn(process.execPath, [...nodeOptions, '--import', 'tsx', 'src/bin.ts', '--port', '0', '--data', dataFile, ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NODE_ENV: 'test' },
  });
  let output = '';
  child.stderr.on('data', (chunk: Buffer) => void (output += chunk.toString()));
  const exited = new Promise<NodeJS.Signals | null>((resolve) => child.once('exit', (_code, signal) => resolve(signal)));
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
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the sandbox exited with code ${code}:\n${output}`));
    });
  });
  return { child, origin, exited, output: () => output };
}

/** Stops it gracefully (SIGTERM: flush, release the lock), SIGKILL after 10 s. */
export async function stopSandbox(sandbox: ChildSandbox): Promise<void> {
  if (sandbox.child.exitCode !== null || sandbox.child.signalCode !== null) return;
  sandbox.child.kill('SIGTERM');
  const timer = setTimeout(() => sandbox.child.kill('SIGKILL'), 10_000);
  await sandbox.exited;
  clearTimeout(timer);
}
