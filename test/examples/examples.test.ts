/**
 * Every folder under examples/ that has a package.json, run as a user would
 * run it: `npm pack` once, then for each example a copy in a temporary
 * folder beside the tarball (where its README's first line packs it), its
 * `npm install` (the tools from npm's cache when it has them), and
 * `npm test` there, which must exit 0
 * and print its test runner's "N passed" summary. Nothing of this
 * repository is reachable from the copy: no node_modules above it, and this
 * repository's `node_modules/.bin` is taken off the PATH.
 * Slow (a build, then an install and a run per example): generous timeouts.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../support/harness.js';
import { npm, packTarball, rootDevDependencies, userProjectEnv } from '../support/npm-package.js';
import { ROOT } from '../support/spawn.js';

interface ExampleManifest {
  private?: boolean;
  type?: string;
  scripts?: Record<string, string>;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

const EXAMPLES = join(ROOT, 'examples');
const examples =
  existsSync(EXAMPLES) ?
    readdirSync(EXAMPLES, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && existsSync(join(EXAMPLES, entry.name, 'package.json')))
      .map((entry) => entry.name)
      .sort()
  : [];
const manifest = (name: string) => JSON.parse(readFileSync(join(EXAMPLES, name, 'package.json'), 'utf8')) as ExampleManifest;
const toolsOf = (m: ExampleManifest) => ({ ...m.dependencies, ...m.devDependencies });
/** What a run leaves behind, never copied: a copy starts as a fresh clone would. */
const GENERATED = new Set(['node_modules', 'dist', 'test-results', 'playwright-report', 'blob-report', '.vite']);

/** The last part of a long output: enough to see why a run failed without flooding the report. */
const tail = (text: string) => (text.length > 20_000 ? `…${text.slice(-20_000)}` : text);

let tarball: string;
beforeAll(() => {
  if (examples.length > 0) tarball = packTarball();
}, 600_000);

describe('the examples', () => {
  it('each has a private ESM package.json with a test script, the packed package and the tools at the versions this repository uses', () => {
    const devDependencies = rootDevDependencies();
    for (const name of examples) {
      const m = manifest(name);
      expect({ private: m.private, type: m.type, test: typeof m.scripts?.test, sandbox: toolsOf(m)['petstore-sandbox'] }, name).toEqual({
        private: true,
        type: 'module',
        test: 'string',
        sandbox: `file:../${basename(tarball)}`,
      });
      const tools = Object.entries(toolsOf(m)).filter(([tool]) => tool !== 'petstore-sandbox');
      expect(Object.fromEntries(tools), name).toEqual(Object.fromEntries(tools.map(([tool]) => [tool, devDependencies[tool]])));
      expect(existsSync(join(EXAMPLES, name, 'README.md')), `${name}/README.md`).toBe(true);
    }
  });

  it.each(examples)('examples/%s: installs from the packed tarball and passes its own npm test', { timeout: 900_000 }, (name) => {
    // The example beside the packed tarball, as its README's first line leaves it in examples/; then its `npm install`.
    const copies = tempDir(`petstore-example-${name}-`);
    const dir = join(copies, name);
    cpSync(join(EXAMPLES, name), dir, { recursive: true, filter: (source) => !GENERATED.has(basename(source)) });
    copyFileSync(tarball, join(copies, basename(tarball)));
    npm(['install', '--no-audit', '--no-fund', '--prefer-offline'], dir);
    const run = spawnSync('npm', ['test'], { cwd: dir, env: userProjectEnv(), encoding: 'utf8', timeout: 600_000, maxBuffer: 64 * 1024 * 1024 });
    const output = stripVTControlCharacters(`${run.stdout}\n${run.stderr}`);
    expect(run.error, tail(output)).toBeUndefined();
    expect(run.status, tail(output)).toBe(0);
    expect(output, 'the test runner reports its passed tests').toMatch(/\b[1-9]\d* passed\b/);
  });
});
