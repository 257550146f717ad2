/**
 * The package as a user gets it: `npm pack` of this repository (which builds
 * through `prepack`) into a temporary folder, and npm run in a user's
 * project. Shared by the package test and the examples harness, so both
 * install the very tarball npm would publish.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { tempDir } from './harness.js';
import { ROOT } from './spawn.js';

/** Runs npm in `cwd` and returns its standard output; throws (with npm's output) when it fails. */
export const npm = (args: string[], cwd: string): string =>
  execFileSync('npm', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, npm_config_update_notifier: 'false' } });

const PACKED = join(ROOT, 'test-output', 'packed');

/**
 * A hash of what a tarball is made from: every file git tracks or would
 * track, but the tests and the examples (names and contents). Undefined
 * outside a git work tree: then every call packs.
 */
function packInputs(): string | undefined {
  const listed = spawnSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: ROOT, encoding: 'utf8' });
  if (listed.status !== 0) return undefined;
  const hash = createHash('sha256');
  for (const file of listed.stdout.split('\0').sort()) {
    if (file === '' || /^(test|examples)\//.test(file) || !existsSync(join(ROOT, file))) continue;
    hash
      .update(file)
      .update('\0')
      .update(readFileSync(join(ROOT, file)))
      .update('\0');
  }
  return hash.digest('hex').slice(0, 16);
}

/** Sleeps `ms` without giving the event loop a turn (the test files call this from a synchronous hook). */
const sleep = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/**
 * Packs this repository with the same npm scripts the Dockerfile runs;
 * returns the tarball's path. A pack builds everything (a minute or two),
 * and four test files need the very same tarball: it is made once per state
 * of the sources, in test-output/packed/<hash>/, by the first file to ask
 * (a folder made atomically says which); the others wait for it.
 */
export function packTarball(): string {
  const inputs = packInputs();
  if (inputs === undefined) return packInto(tempDir('petstore-pack-'));
  const dir = join(PACKED, inputs);
  const done = join(dir, 'tarball');
  const packer = join(dir, 'packer.pid');
  mkdirSync(PACKED, { recursive: true });
  try {
    mkdirSync(dir);
  } catch {
    // Another test file packs these sources, or has: its tarball, once written (a build takes minutes, so 20 are allowed).
    for (let waited = 0; !existsSync(done) && waited < 1_200_000; waited += 500) {
      if (waited > 5_000 && !isAlive(packer)) {
        // Its packer was killed before it finished: start again.
        rmSync(dir, { recursive: true, force: true });
        return packTarball();
      }
      sleep(500);
    }
    if (!existsSync(done)) throw new Error(`no tarball in ${dir} after 20 minutes: the test file packing it failed or stopped`);
    return join(dir, readFileSync(done, 'utf8'));
  }
  writeFileSync(packer, String(process.pid));
  for (const old of readdirSync(PACKED)) if (old !== inputs) rmSync(join(PACKED, old), { recursive: true, force: true });
  try {
    const tarball = packInto(dir);
    writeFileSync(done, basename(tarball));
    return tarball;
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}

/** Whether the process whose pid `file` holds is running (false when there is no such file). */
function isAlive(file: string): boolean {
  try {
    process.kill(Number(readFileSync(file, 'utf8')), 0);
    return true;
  } catch {
    return false;
  }
}

/** `npm pack` into `dir`; the tarball's path. */
function packInto(dir: string): string {
  const name = npm(['pack', '--silent', '--pack-destination', dir], ROOT).trim().split('\n').at(-1) as string;
  return join(dir, name);
}

/** This repository's devDependencies, by name: the versions a user's project is expected to use alongside the package. */
export function rootDevDependencies(): Record<string, string> {
  return (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> }).devDependencies;
}

/**
 * The environment of a command run in a user's project (an example's `npm test`, a Vitest run): this
 * process's, without what Vitest sets for its own workers (the project runs its own runner) and
 * without this repository's dependencies' binaries on the PATH (but the same Node); browsers never downloaded, Debian's Chromium named.
 */
export function userProjectEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1', CHROMIUM: '/usr/bin/chromium', npm_config_update_notifier: 'false' };
  for (const name of Object.keys(env)) if (/^VITEST/.test(name) || name === 'TEST' || name === 'NODE_ENV') delete env[name];
  env.PATH = (env.PATH ?? '')
    .split(':')
    // Its own binaries only: the Node it runs on may live under it too (.ci/node24, which CI and `npm test` put first).
    .filter((dir) => !dir.startsWith(join(ROOT, 'node_modules')))
    .join(':');
  return { ...env, ...extra };
}
