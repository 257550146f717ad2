/**
 * What `verify` writes to a file or a pipe: text, without colour codes and
 * without the warnings Node prints about its dependencies' insides.
 */
import { spawn } from 'node:child_process';
import { constants as osConstants } from 'node:os';
import type { Readable, Writable } from 'node:stream';
import { stripVTControlCharacters } from 'node:util';

/** Node's warning about Dredd's logger (winston 2 reads its own exports during a circular require): nothing a user can act on. */
const DEPENDENCY_NOISE = /^Accessing non-existent property '\w+' of module exports inside circular dependency$/;

/** Deprecations Dredd's own code (or its dependencies') sets off, by code: `util._extend` (DEP0060). Nothing a user can act on either. */
const DEPENDENCY_DEPRECATIONS = new Set(['DEP0060']);

/** Whether a warning is one of the dependencies' above, which verify does not print. */
const isDependencyNoise = (warning: Error & { code?: string }): boolean =>
  DEPENDENCY_NOISE.test(warning.message) || (warning.name === 'DeprecationWarning' && DEPENDENCY_DEPRECATIONS.has(warning.code ?? ''));

/** The signals the parent passes on to the child that runs the checks. */
const FORWARDED: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/** Set in the child that runs the checks, whose output the parent makes plain. */
const CHILD = 'PETSTORE_VERIFY_PLAIN_CHILD';

/** Whether the output should carry colour: at a terminal, unless NO_COLOR; anywhere with FORCE_COLOR (not 0). */
export function wantsColour(isTTY: boolean | undefined, env: NodeJS.ProcessEnv): boolean {
  if (env.FORCE_COLOR !== undefined) return env.FORCE_COLOR !== '0';
  return isTTY === true && env.NO_COLOR === undefined;
}

/** Prints Node's warnings as Node would, all but the dependency's noise above. */
function quietWarnings(): void {
  process.removeAllListeners('warning');
  process.on('warning', (warning) => {
    if (!isDependencyNoise(warning)) process.stderr.write(`(node:${process.pid}) ${warning.name}: ${warning.message}\n`);
  });
}

/** Copies `from` to `to` without colour codes, line by line (a code is never cut in two). */
function copyPlain(from: Readable, to: Writable): Promise<void> {
  let rest = '';
  from.setEncoding('utf8');
  from.on('data', (chunk: string) => {
    const text = rest + chunk;
    const end = text.lastIndexOf('\n') + 1;
    rest = text.slice(end);
    if (end > 0) to.write(stripVTControlCharacters(text.slice(0, end)));
  });
  return new Promise((resolve) => from.once('end', () => resolve(void to.write(stripVTControlCharacters(rest)))));
}

/**
 * Runs `run` with plain output when stdout is not a terminal. The Pact
 * verifier's native core writes colour codes straight to the process's
 * stdout and has no switch for them that pact-js passes on, so the checks
 * then run in a child process whose output is copied here, codes removed.
 */
export async function plainOutput(run: () => Promise<number>): Promise<number> {
  quietWarnings();
  if (process.env[CHILD] !== undefined || wantsColour(process.stdout.isTTY, process.env)) return run();
  const child = spawn(process.execPath, [...process.execArgv, ...process.argv.slice(1)], {
    env: { ...process.env, [CHILD]: '1', NO_COLOR: '1' },
    stdio: ['inherit', 'pipe', 'pipe'],
  });
  // An interrupt is the child's to handle: it puts the workspace back before it exits (workspace-guard.ts).
  const forward = (signal: NodeJS.Signals) => void child.kill(signal);
  for (const signal of FORWARDED) process.on(signal, forward);
  const copied = Promise.all([copyPlain(child.stdout, process.stdout), copyPlain(child.stderr, process.stderr)]);
  const code = await new Promise<number>((resolve) => child.once('close', (exit, signal) => resolve(exit ?? (signal ? 128 + osConstants.signals[signal] : 1))));
  for (const signal of FORWARDED) process.off(signal, forward);
  await copied;
  return code;
}
