/**
 * The sandbox's image, built from this repository with the Dockerfile as
 * users build it, on the stand-in base image (base-image.ts). The build's
 * npm reaches the registry with this machine's certificate authorities when
 * Node is given extra ones (NODE_EXTRA_CA_CERTS, as behind a TLS-inspecting
 * proxy): they are mounted for the build's RUN steps only, through npm's
 * global config, so the image holds neither.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../spawn.js';
import { ensureBaseImage } from './base-image.js';
import { podman, RUNTIME } from './podman.js';

/** Mounts that give the build's npm this machine's extra certificate authorities, if it has any. */
function caMounts(dir: string): string[] {
  const ca = process.env.NODE_EXTRA_CA_CERTS;
  if (ca === undefined || ca === '') return [];
  const npmrc = join(dir, 'npmrc');
  writeFileSync(npmrc, 'cafile=/run/host-ca.pem\n');
  return ['--volume', `${ca}:/run/host-ca.pem:ro`, '--volume', `${npmrc}:/usr/local/etc/npmrc:ro`];
}

/**
 * Builds the image from ROOT's Dockerfile under `tag` (in Docker's format, which keeps the
 * HEALTHCHECK) and returns the build's time in milliseconds. Neither the build stage's image nor,
 * should the build fail, its containers are kept.
 */
export function buildSandboxImage(tag: string, timeoutMs = 1_200_000): number {
  ensureBaseImage();
  const dir = mkdtempSync(join(tmpdir(), 'petstore-build-'));
  const start = Date.now();
  try {
    const options = ['--format', 'docker', '--pull=never', '--force-rm', '--network', 'host', '--layers=false', '--runtime', RUNTIME, ...caMounts(dir)];
    podman(['build', ...options, '--tag', tag, '--file', join(ROOT, 'Dockerfile'), ROOT], { timeoutMs });
    return Date.now() - start;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
