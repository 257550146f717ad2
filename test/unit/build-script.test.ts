/**
 * scripts/build.mjs, the build before `npm start` and `npm run cli`, on a
 * copy of the sources (with this checkout's node_modules): a fresh copy is
 * built whole, a second build with nothing changed writes nothing, and a
 * changed source rebuilds its part alone (verify's bundle also on a change
 * in src/, whose typed client it holds).
 */
import { spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, readdirSync, realpathSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../support/harness.js';
import { ROOT } from '../support/spawn.js';

const INPUTS = ['src', 'contracts', 'web', 'spec', 'fixtures', 'scripts', 'package.json', 'package-lock.json', 'tsconfig.json'];

/** A copy of what the build reads, as a fresh clone after `npm install` has it: no dist/ yet. */
function freshCopy(): string {
  const dir = tempDir('petstore-build-');
  for (const input of INPUTS) cpSync(join(ROOT, input), join(dir, input), { recursive: true });
  symlinkSync(realpathSync(join(ROOT, 'node_modules')), join(dir, 'node_modules'));
  return dir;
}

/** Runs the build in `dir`; what it said about the parts it built. */
function build(dir: string): string {
  const run = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: dir, encoding: 'utf8', timeout: 120_000 });
  expect(run.status, run.stderr).toBe(0);
  return run.stderr;
}

/** Every file under dist/ with its modification time and inode: a rewrite or a replacement changes one of them. */
function distFiles(dir: string): Map<string, string> {
  const dist = join(dir, 'dist');
  const files = readdirSync(dist, { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
  return new Map(
    files.map((e) => {
      const path = join(e.parentPath, e.name);
      const s = statSync(path);
      return [relative(dist, path), `${s.mtimeMs}:${s.ino}:${s.size}`];
    }),
  );
}

/** The shared chunks of a listing. */
const chunks = (files: Map<string, string>) => [...files.keys()].filter((file) => file.startsWith('chunks/'));

/** The files whose time, inode or size differ between two listings. */
function rewritten(before: Map<string, string>, after: Map<string, string>): string[] {
  return [...after.keys()].filter((file) => before.get(file) !== after.get(file)).sort();
}

describe('scripts/build.mjs', { timeout: 240_000 }, () => {
  it('builds a fresh copy whole, then nothing while nothing changed, then only the part whose sources changed', () => {
    const dir = freshCopy();
    try {
      expect(build(dir)).toBe('build: server (not built yet)\nbuild: verify (not built yet)\nbuild: ui (not built yet)\n');
      const first = distFiles(dir);
      const entries = ['cli.js', 'index.js', 'middleware.js', 'src/bin.js', 'browser/msw.js', 'verify/command.js', 'verify/dredd-hooks/hooks.cjs'];
      expect([...first.keys()]).toEqual(expect.arrayContaining([...entries, 'ui/console/console.js', 'ui/docs/index.html', '.build-stamp.json']));

      expect(build(dir)).toBe('');
      expect(rewritten(first, distFiles(dir))).toEqual([]);

      // A change of code, not a comment alone, so that the bundle's bytes change too (a chunk gets a new name).
      // verify's bundle holds the sandbox's typed client, so a change in src/ rebuilds it too.
      appendFileSync(join(dir, 'src', 'config', 'paths.ts'), "\nprocess.env.PETSTORE_BUILD_PROBE ??= 'changed';\n");
      expect(build(dir)).toBe('build: server (sources changed)\nbuild: verify (sources changed)\n');
      const second = distFiles(dir);
      // The entries import the shared chunks by their content's hash: the changed chunk is a new file, and the old one is gone.
      const changed = rewritten(first, second);
      expect(changed).toEqual(expect.arrayContaining(['.build-stamp.json', 'src/bin.js']));
      expect(changed.filter((file) => file.startsWith('ui/'))).toEqual([]);
      expect(changed.some((file) => file.startsWith('chunks/'))).toBe(true);
      expect(chunks(second)).toHaveLength(chunks(first).length);

      appendFileSync(join(dir, 'web', 'console', 'console.css'), '\n/* changed */\n');
      expect(build(dir)).toBe('build: ui (sources changed)\n');
      const third = rewritten(second, distFiles(dir));
      expect(third).toContain('ui/console/console.css');
      expect(third).not.toContain('src/bin.js');

      rmSync(join(dir, 'dist', 'src', 'bin.js'));
      expect(build(dir)).toBe('build: server (not built yet)\n');

      appendFileSync(join(dir, 'contracts', 'verify-main.ts'), "\nprocess.env.PETSTORE_BUILD_PROBE ??= 'changed';\n");
      expect(build(dir)).toBe('build: verify (sources changed)\n');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
