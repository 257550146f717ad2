/**
 * The package as a user gets it: `npm pack` of this repository (which builds
 * through `prepack`) into a temporary folder, and npm run in a user's
 * project. Shared by the package test and the examples harness, so both
 * install the very tarball npm would publish.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from './harness.js';
import { ROOT } from './spawn.js';

/** Runs npm in `cwd` and returns its standard output; throws (with npm's output) when it fails. */
export const npm = (args: string[], cwd: string): string =>
  execFileSync('npm', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, npm_config_update_notifier: 'false' } });

/** Packs this repository with the same npm scripts the Dockerfile runs; returns the tarball's path. */
export function packTarball(): string {
  const packed = tempDir('petstore-pack-');
  const name = npm(['pack', '--silent', '--pack-destination', packed], ROOT).trim().split('\n').at(-1) as string;
  return join(packed, name);
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
