/**
 * Running the sandbox as the unprivileged user `nobody` (through `setpriv`),
 * for tests of file permissions: root would ignore them.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempDir } from './harness.js';
import { spawnSandbox, type ChildSandbox, type SpawnOptions } from './spawn.js';
import { userIds } from './user-reach.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The user and group ids of `nobody` (NaN where there is none). */
export const NOBODY = userIds('nobody') ?? { uid: NaN, gid: NaN };

const SETPRIV = ['setpriv', `--reuid=${NOBODY.uid}`, `--regid=${NOBODY.gid}`, '--clear-groups'];

/**
 * Why the sandbox cannot run as nobody here, or `undefined` when it can:
 * not root, no such user, no setpriv, or a repository (sources, tsx) that
 * nobody cannot read.
 */
export function nobodyUnavailable(): string | undefined {
  if (process.getuid?.() !== 0) return 'switching to another user needs root';
  if (Number.isNaN(NOBODY.uid)) return 'there is no user nobody';
  const probe = `const fs = require('node:fs'); for (const f of ['src/bin.ts', 'node_modules/tsx/package.json', 'spec/openapi.yaml']) fs.accessSync(${JSON.stringify(ROOT)} + f, fs.constants.R_OK);`;
  const result = spawnSync(SETPRIV[0] as string, [...SETPRIV.slice(1), process.execPath, '-e', probe], { encoding: 'utf8' });
  if (result.error) return `setpriv cannot run: ${result.error.message}`;
  if (result.status !== 0) return `nobody cannot read the repository at ${ROOT}: ${result.stderr.trim().split('\n')[0]}`;
  return undefined;
}

/** Spawn options that run the sandbox as nobody, with `tmpDir` (writable by nobody) as TMPDIR for tsx's cache. */
export function asNobody(tmpDir: string): SpawnOptions {
  return { wrapper: SETPRIV, env: { TMPDIR: tmpDir } };
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
