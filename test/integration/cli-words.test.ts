/**
 * The built command line says every mistake in its own words: its flags,
 * the variable that was set, the nearest flag or command for a near miss,
 * never the argument parser's text; and each command's `--help` is its own.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { bundleSandbox } from '../support/bundle.js';
import { tempDir } from '../support/harness.js';
import { runToEnd, type CliResult } from '../support/spawn.js';
import { HELP_COMMANDS } from '../../src/cli/command-help.js';
import { COMMANDS } from '../../src/cli/commands.js';

let bin: string;
beforeAll(async () => {
  bin = await bundleSandbox('cli-words');
}, 120_000);

/** The built bin run to its end (at most 60 s), without any PETSTORE_ variable of the caller's. */
function run(args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('PETSTORE_') && !name.startsWith('npm_')));
  return runToEnd([bin, ...args], { env: { ...clean, ...env }, timeout: 60_000 });
}

const HINT = 'Run petstore-sandbox --help for the options.';

describe.concurrent('the command line in its own words', { timeout: 120_000 }, () => {
  it.each([
    [['--prot', '4011'], {}, "unknown option '--prot' (did you mean --port?)"],
    [['--journl-size', '5'], {}, "unknown option '--journl-size' (did you mean --journal-size?)"],
    [['--seed'], {}, "--seed needs a value (one that starts with '-' is given as --seed=<value>)"],
    [['--count', '-1'], {}, "--count must be between 0 and 1000000, got '-1'"],
    [[], { PETSTORE_MODE: 'mock' }, "PETSTORE_MODE must be one of stateful, example, dynamic, proxy, got 'mock'"],
    [[], { PETSTORE_SEED: 'abc' }, "PETSTORE_SEED must be a whole number, got 'abc'"],
    [['jornal'], {}, "unknown command 'jornal' (did you mean 'journal'?)"],
    [
      ['statsu'],
      {},
      "unknown command 'statsu': the commands are serve, seed, reset, load, export, journal, pact, coverage, checkpoint, copy, diff, mcp, verify",
    ],
    [['chekpoint', 'list'], {}, "unknown command 'chekpoint' (did you mean 'checkpoint'?)"],
  ])('%j %j: %s', async (args, env, message) => {
    const dir = tempDir();
    const result = await run([...args, '--data', join(dir, 'db.json')], env);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr.trimEnd().split('\n')).toEqual([`petstore-sandbox: ${message}`, HINT]);
    expect(existsSync(join(dir, 'db.json'))).toBe(false);
  });

  it.each(HELP_COMMANDS)('%s --help: its own usage and options, not the whole help', async (command) => {
    const result = await run([command, '--help']);
    expect([result.code, result.stderr]).toEqual([0, '']);
    expect(result.stdout.startsWith(`Usage: petstore-sandbox ${command}`)).toBe(true);
    expect(result.stdout).not.toContain('Options (each also from an environment variable)');
    expect(result.stdout.split('\n').length).toBeLessThan(25);
  });

  it("every command has a help of its own (verify has the contract checks' own)", () => {
    expect([...HELP_COMMANDS].sort()).toEqual([...COMMANDS, 'diff', 'mcp'].sort());
  });

  it('--help alone, and serve --help, is the whole usage', async () => {
    for (const args of [['--help'], ['serve', '--help']]) {
      const result = await run(args);
      expect(result.code).toBe(0);
      expect(result.stdout).toContain('Options (each also from an environment variable)');
    }
  });
});
