/**
 * Running the sandbox as the unprivileged user `nobody` (through `setpriv`),
 * for tests of file permissions: root would ignore them. Where nobody cannot
 * read this checkout, the sandbox runs from a copy of it that nobody can.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempDir } from './harness.js';
import { spawnSandbox, type ChildSandbox, type SpawnOptions } from './spawn.js';
import { userIds } from './user-reach.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The user and group ids of `nobody` (NaN where there is none). */
export const NOBODY = userIds('nobody') ?? { uid: NaN, gid: NaN };

const SETPRIV = ['setpriv', `--reuid=${NOBODY.uid}`, `--regid=${NOBODY.gid}`, '--clear-groups'];

/** What the sandbox reads from a checkout when it runs from its sources through tsx. */
const NEEDED = ['src', 'spec', 'fixtures', 'node_modules', 'package.json', 'tsconfig.json'];

/** The checkout the sandbox runs from as nobody: this one, or a copy of it that nobody can read (see nobodyUnavailable). */
let checkout = ROOT;

/** Why nobody cannot read the sources and tsx in `dir`, or `undefined` when it can. */
function unreadable(dir: string): string | undefined {
  const probe = `const fs = require('node:fs'); for (const f of ['src/bin.ts', 'node_modules/tsx/package.json', 'spec/openapi.yaml']) fs.accessSync(${JSON.stringify(join(dir, '/'))} + f, fs.constants.R_OK);`;
  const result = spawnSync(SETPRIV[0] as string, [...SETPRIV.slice(1), process.execPath, '-e', probe], { encoding: 'utf8' });
  if (result.error) return `setpriv cannot run: ${result.error.message}`;
  if (result.status !== 0) return result.stderr.trim().split('\n')[0] || `exit code ${result.status}`;
  return undefined;
}

/**
 * What the sandbox needs of this checkout, hard-linked (copied across file
 * systems) into a folder every user may enter, removed after the test file:
 * for a checkout that nobody cannot reach, such as a clone inside a folder of
 * mode 0700 (`mktemp -d`, root's home).
 */
function readableCopy(): string {
  const dir = tempDir('petstore-nobody-checkout-');
  chmodSync(dir, 0o755);
  for (const name of NEEDED) {
    const [from, to] = [realpathSync(join(ROOT, name)), join(dir, name)];
    if (spawnSync('cp', ['-al', from, to]).status !== 0) execFileSync('cp', ['-a', from, to]);
  }
  return dir;
}

/**
 * Why the sandbox cannot run as nobody here, or `undefined` when it can:
 * not root, no such user, no setpriv, or sources and tsx that nobody cannot
 * read, here or in a copy made where it can.
 */
export function nobodyUnavailable(): string | undefined {
  if (process.getuid?.() !== 0) return 'switching to another user needs root';
  if (Number.isNaN(NOBODY.uid)) return 'there is no user nobody';
  const here = unreadable(ROOT);
  if (here === undefined) return undefined;
  if (here.startsWith('setpriv')) return here;
  checkout = readableCopy();
  const copied = unreadable(checkout);
  return copied && `nobody can read neither the repository at ${ROOT} nor a copy of it at ${checkout}: ${copied}`;
}

/** Spawn options that run the sandbox as nobody, with `tmpDir` (writable by nobody) as TMPDIR for tsx's cache. */
export function asNobody(tmpDir: string): SpawnOptions {
  return { wrapper: SETPRIV, env: { TMPDIR: tmpDir }, ...(checkout === ROOT ? {} : { checkout }) };
}

/** Folders of nobody's, and the sandbox started as nobody, for one test file. */
export interface NobodyFolders {
  /** A new folder owned by nobody. */
  folder(name: string): string;
  /** Starts the sandbox as nobody on `dataFile`, with a TMPDIR of its own (tsx keeps a cache there). */
  start(dataFile: string, args: string[]): Promise<ChildSandbox>;
}

/**
 * Folders for nobody under one temporary folder (removed after the test
 * file), opened up to nobody: a temporary folder is private to root until then.
 */
export function createNobodyFolders(prefix: string): NobodyFolders {
  const base = tempDir(prefix);
  chmodSync(base, 0o755);
  let starts = 0;
  const folder = (name: string): string => {
    const dir = join(base, name);
    mkdirSync(dir);
    chownSync(dir, NOBODY.uid, NOBODY.gid);
    return dir;
  };
  return {
    folder,
    start: (dataFile, args) => spawnSandbox(dataFile, args, asNobody(folder(`tmp-${(starts += 1)}`))),
  };
}
