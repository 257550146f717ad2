import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** Node with tsx's loader: one process per run (the tsx CLI would start a second). */
const WITH_TSX = ['--import', 'tsx'];
const BIN = fileURLToPath(new URL('../../src/bin.ts', import.meta.url));

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the real CLI (src/bin.ts through tsx's loader) to completion. */
export function runCli(args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...WITH_TSX, BIN, ...args], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Starts the real CLI server on a free port; resolves once it prints its URL. */
export function startCliServer(args: string[]): Promise<{ child: ChildProcess; baseUrl: string; origin: string; stop(): Promise<number | null> }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...WITH_TSX, BIN, '--port', '0', ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    const timer = setTimeout(() => reject(new Error(`sandbox did not start: ${out}`)), 30_000);
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const match = /listening on (http:\/\/[^\s]+)\/v1/.exec(out);
      if (match?.[1]) {
        clearTimeout(timer);
        const origin = match[1];
        resolve({
          child,
          origin,
          baseUrl: `${origin}/v1`,
          stop: () =>
            new Promise((done) => {
              child.once('exit', (code) => done(code));
              child.kill('SIGTERM');
            }),
        });
      }
    });
    child.stderr?.on('data', (d: Buffer) => (out += d.toString()));
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`sandbox exited with ${code}: ${out}`));
    });
  });
}
