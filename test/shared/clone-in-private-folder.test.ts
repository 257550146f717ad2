/**
 * The test set-up works wherever the clone sits: a clone of this repository
 * inside a folder only its owner may enter (mode 0700, as `mktemp -d` makes
 * and as root's home is) runs a PostgreSQL-backed test file with its own
 * vitest, passes, and leaves its tree clean. As root, PostgreSQL runs as
 * another user, which cannot enter that folder: the server's binaries must
 * come from a place it can reach (test/support/postgres-binaries.ts).
 *
 * The clone is of the commit checked out here (HEAD), with a hard-linked copy
 * of node_modules inside the private folder (a symlink would lead out of it).
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, realpathSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { describe, expect, it } from 'vitest';
import { serverUser } from '../support/postgres-server.js';
import { collectOutput, ROOT, type Ended } from '../support/spawn.js';
import { closedFolderOnTheWay } from '../support/user-reach.js';

/** The one test file run in the clone: small, and on PostgreSQL it starts the run's server and a sandbox on it. */
const TEST_FILE = 'test/integration/persistence.test.ts';
const RUN_TIMEOUT_MS = 240_000;

const git = (args: string[], cwd: string) => execFileSync('git', args, { cwd, encoding: 'utf8' }).trim();
const gitUnavailable = (() => {
  const probe = spawnSync('git', ['rev-parse', 'HEAD'], { cwd: ROOT, encoding: 'utf8' });
  return probe.status === 0 ? undefined : 'this copy of the repository is no git checkout, so it cannot be cloned';
})();

/** A clone of HEAD in `parent`, with node_modules hard-linked (copied where links cannot be made). */
function cloneInto(parent: string): string {
  const clone = join(parent, 'repo');
  git(['clone', '--quiet', '--no-checkout', ROOT, clone], parent);
  git(['checkout', '--quiet', '--detach', git(['rev-parse', 'HEAD'], ROOT)], clone);
  const modules = realpathSync(join(ROOT, 'node_modules'));
  const linked = spawnSync('cp', ['-al', modules, join(clone, 'node_modules')]);
  if (linked.status !== 0) execFileSync('cp', ['-a', modules, join(clone, 'node_modules')]);
  return clone;
}

/** The clone's environment: this run's own vitest variables left out, so the inner run is a run of its own. */
function innerEnv(): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('VITEST') && name !== 'NODE_OPTIONS'));
  return { ...env, PETSTORE_TEST_STORE: 'postgres', CI: 'true', NO_COLOR: '1' };
}

/**
 * Runs the clone's own vitest on TEST_FILE, in a process group of its own: past
 * the time bound the whole group (vitest, the sandboxes, PostgreSQL) is killed.
 */
async function runInClone(clone: string): Promise<Ended & { output: string }> {
  const vitest = join(clone, 'node_modules', 'vitest', 'vitest.mjs');
  const child = spawn(process.execPath, [vitest, 'run', TEST_FILE], { cwd: clone, env: innerEnv(), detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  const output = collectOutput(child);
  const timer = setTimeout(() => child.pid && process.kill(-child.pid, 'SIGKILL'), RUN_TIMEOUT_MS);
  try {
    const ended = await new Promise<Ended>((resolve, reject) => child.once('error', reject).once('close', (code, signal) => resolve({ code, signal })));
    return { ...ended, output: stripVTControlCharacters(output.all()) };
  } finally {
    clearTimeout(timer);
  }
}

describe('a clone inside a folder of mode 0700', () => {
  it.skipIf(gitUnavailable)(
    `runs a PostgreSQL-backed test file with its own vitest, passes, and leaves the tree clean${gitUnavailable ? ` (skipped: ${gitUnavailable})` : ''}`,
    { timeout: RUN_TIMEOUT_MS + 120_000 },
    async () => {
      const parent = mkdtempSync(join(tmpdir(), 'petstore-private-'));
      try {
        chmodSync(parent, 0o700);
        expect(statSync(parent).mode & 0o777).toBe(0o700);
        const clone = cloneInto(parent);
        const user = serverUser();
        // As root, the case that matters: the server's user cannot reach the clone's node_modules.
        if (user) expect(closedFolderOnTheWay(join(clone, 'node_modules'), user)).toContain(parent);
        const run = await runInClone(clone);
        expect({ code: run.code, signal: run.signal }, run.output).toEqual({ code: 0, signal: null });
        expect(run.output).toMatch(/Tests\s+\d+ passed/);
        expect(git(['status', '--porcelain'], clone)).toBe('');
      } finally {
        rmSync(parent, { recursive: true, force: true });
      }
    },
  );
});
