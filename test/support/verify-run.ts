/** `npm run verify` as a user runs it: a child process in the repository, its output collected. */
import { spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
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

/** The fenced blocks of a Markdown text, each as its info string (`sh`, or empty) and its lines. */
function fencedBlocks(markdown: string): { info: string; text: string }[] {
  const blocks: { info: string; text: string }[] = [];
  let open: { info: string; lines: string[] } | undefined;
  for (const line of markdown.split('\n')) {
    const fence = /^```(\S*)$/.exec(line);
    if (open && line === '```') {
      blocks.push({ info: open.info, text: open.lines.map((l) => `${l}\n`).join('') });
      open = undefined;
    } else if (open) open.lines.push(line);
    else if (fence) open = { info: fence[1] ?? '', lines: [] };
  }
  return blocks;
}

/** A fenced block of docs/contract-testing.md without a language, found by how it starts: what the page shows verify printing. */
export function documentedOutput(start: string): string {
  const page = readFileSync(join(ROOT, 'docs/contract-testing.md'), 'utf8');
  const block = fencedBlocks(page).find((b) => b.info === '' && b.text.startsWith(start));
  if (block === undefined) throw new Error(`docs/contract-testing.md shows no output starting '${start}'`);
  return block.text;
}
