/**
 * `petstore-sandbox mcp` as a process, without a client: its usage errors,
 * and how it stops (stdin closed, SIGTERM), with exit codes. It needs no
 * sandbox for either: it reaches one only when a tool is called.
 */
import { spawn, spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { builtCli } from '../support/mcp-client.js';
import { collectOutput } from '../support/spawn.js';

describe('petstore-sandbox mcp, used wrongly', { timeout: 60_000 }, () => {
  it.each([
    [[], 'Usage: mcp --url <sandbox origin>'],
    [['--url', 'ftp://127.0.0.1:4010'], "--url must be an http(s) URL, got 'ftp://127.0.0.1:4010'."],
    [['--url', 'http://127.0.0.1:4010', 'extra'], "'mcp' takes no arguments."],
    [['--url', 'http://127.0.0.1:4010', '--timeout', '0'], "--timeout must be a number of seconds above 0 and at most 3600, got '0'."],
  ])('%j: exit 2, the reason and where the help is, nothing on stdout', async (args, message) => {
    const run = spawnSync(process.execPath, [await builtCli('mcp-cli-process'), 'mcp', ...args], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 30_000,
    });
    expect(run.status, run.stderr).toBe(2);
    expect(run.stderr.trimEnd().split('\n')).toEqual([
      expect.stringContaining(`petstore-sandbox mcp: ${message}`),
      'Run petstore-sandbox --help for the options.',
    ]);
    expect(run.stdout).toBe('');
  });
});

describe('petstore-sandbox mcp stops', { timeout: 60_000 }, () => {
  it.each(['stdin closed', 'SIGTERM'])('when %s: exit code 0, having written nothing on stdout', async (how) => {
    const child = spawn(process.execPath, [await builtCli('mcp-cli-process'), 'mcp', '--url', 'http://127.0.0.1:4010'], { stdio: ['pipe', 'pipe', 'pipe'] });
    const output = collectOutput(child);
    const ended = new Promise<[number | null, NodeJS.Signals | null]>((resolve) => child.once('exit', (code, signal) => resolve([code, signal])));
    // Its one line on stderr says it serves: only then is it listening on stdin.
    await new Promise<void>((resolve) => child.stderr.once('data', () => resolve()));
    if (how === 'SIGTERM') child.kill('SIGTERM');
    else child.stdin.end();
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    expect(await ended).toEqual([0, null]);
    clearTimeout(timer);
    expect(output.stderr()).toContain('petstore-sandbox mcp: serving the Model Context Protocol on stdio for the sandbox at http://127.0.0.1:4010');
    expect(output.stdout()).toBe('');
  });
});
