/**
 * The image the Testcontainers module's test runs: the Dockerfile's run
 * stage, word for word, on the stand-in base image (test/support/container/
 * base-image.ts), with its copies from the build stage taken from the build
 * context instead: the tarball of `npm pack` run here (the same npm scripts
 * as the Dockerfile's build stage, and the package test's), and the server's
 * peers as scripts/server-peers.mjs prints them, as the build stage runs it.
 * The image's own build with the
 * whole Dockerfile is the container test's (test/container/). Rebuilt only
 * when the tarball, the run stage or this recipe change: their hash is a
 * label of the image.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureBaseImage } from '../container/base-image.js';
import { imageLabel, podman, podmanResult, RUNTIME } from '../container/podman.js';
import { tempDir } from '../harness.js';
import { packTarball } from '../npm-package.js';
import { ROOT } from '../spawn.js';

/** Not `petstore-sandbox:local`, the name `compose.yaml` gives the whole Dockerfile's build. */
export const TESTCONTAINERS_IMAGE = 'localhost/petstore-sandbox:testcontainers';
const LABEL = 'org.petstore-sandbox.testcontainers-inputs';
const FROM_BUILD = /^COPY --from=build \/tmp\/(\S+) /gm;
/** What the run stage copies from the build stage: the tarball, and the server's peers (scripts/server-peers.mjs). */
const COPIED = ['petstore-sandbox.tgz', 'server-peers.txt'];

/** The Dockerfile's last stage, what it copies from the build stage copied from the build context. */
function runStage(): string {
  const dockerfile = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');
  const stage = dockerfile.slice(dockerfile.lastIndexOf('\nFROM ') + 1);
  const copied = [...stage.matchAll(FROM_BUILD)].map((m) => m[1]);
  if (copied.join() !== COPIED.join()) throw new Error(`the Dockerfile's run stage copies ${copied.join(', ')} from the build stage, not ${COPIED.join(', ')}`);
  return stage.replace(FROM_BUILD, 'COPY $1 ');
}

/** Mounts that give the build's npm this machine's extra certificate authorities (NODE_EXTRA_CA_CERTS), if any. */
function caMounts(dir: string): string[] {
  const ca = process.env.NODE_EXTRA_CA_CERTS;
  if (ca === undefined || ca === '') return [];
  writeFileSync(join(dir, 'npmrc'), 'cafile=/run/host-ca.pem\n');
  return ['--volume', `${ca}:/run/host-ca.pem:ro`, '--volume', `${join(dir, 'npmrc')}:/usr/local/etc/npmrc:ro`];
}

/** Builds the image unless one of the same inputs exists; resolves with its name. */
export function ensureTestcontainersImage(): string {
  const base = ensureBaseImage();
  const tarball = packTarball();
  const stage = runStage();
  const peers = execFileSync(process.execPath, [join(ROOT, 'scripts', 'server-peers.mjs')], { encoding: 'utf8' });
  const hash = createHash('sha256')
    .update(JSON.stringify({ base, stage, peers, recipe: readFileSync(fileURLToPath(import.meta.url), 'utf8') }))
    .update(readFileSync(tarball))
    .digest('hex')
    .slice(0, 16);
  if (imageLabel(TESTCONTAINERS_IMAGE, LABEL) === hash) return TESTCONTAINERS_IMAGE;
  const context = tempDir('petstore-tc-image-');
  copyFileSync(tarball, join(context, 'petstore-sandbox.tgz'));
  writeFileSync(join(context, 'server-peers.txt'), peers);
  writeFileSync(join(context, 'Containerfile'), stage);
  const options = ['--format', 'docker', '--pull=never', '--network', 'host', '--layers=false', '--runtime', RUNTIME, ...caMounts(context)];
  podman(['build', ...options, '--label', `${LABEL}=${hash}`, '--tag', TESTCONTAINERS_IMAGE, '--file', join(context, 'Containerfile'), context], {
    timeoutMs: 900_000,
  });
  // The image this one replaces lost its tag: removed, or each change of the package would leave one more behind.
  const superseded = podman(['images', '--quiet', '--filter', 'dangling=true', '--filter', `label=${LABEL}`])
    .trim()
    .split('\n')
    .filter(Boolean);
  if (superseded.length > 0) podmanResult(['rmi', ...superseded]);
  return TESTCONTAINERS_IMAGE;
}
