/** `npm run verify` as a user runs it: a child process in the repository, its output collected. */
import { spawn } from 'node:child_process';
import { ROOT } from './spawn.js';

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
