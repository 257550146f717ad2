/**
 * A stand-in for the sandbox's image, for the Testcontainers module's test
 * on a machine with no image registry: the package as `npm pack` makes it,
 * installed with `npm install --omit=dev` as the Dockerfile's run stage does,
 * in a root file system holding only this Node binary and the libraries it
 * links, imported with the Dockerfile's ENV, USER, VOLUME, EXPOSE and
 * ENTRYPOINT. Rebuilt only when the tarball's content changes or this recipe changes (their hash
 * is a label of the image).
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, chownSync, copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempDir } from '../harness.js';
import { npm, packTarball } from '../npm-package.js';
import { podman } from './service.js';

/** The stand-in's name: not `petstore-sandbox:local`, which the Dockerfile's own build owns. */
export const STANDIN_IMAGE = 'localhost/petstore-sandbox:testcontainers';
const LABEL = 'petstore.tarball-sha256';

/** The image's settings, as the Dockerfile's run stage declares them. */
const CHANGES = [
  'ENV PATH=/usr/local/bin:/usr/bin:/bin',
  ...['NODE_ENV=production', 'PETSTORE_HOST=0.0.0.0', 'PETSTORE_PORT=4010', 'PETSTORE_DATA=/data/db.json', 'PETSTORE_LOG_FORMAT=json'].map((v) => `ENV ${v}`),
  'WORKDIR /app',
  'USER node',
  'VOLUME /data',
  'EXPOSE 4010',
  'STOPSIGNAL SIGTERM',
  'ENTRYPOINT ["node", "/app/node_modules/petstore-sandbox/dist/src/bin.js"]',
];

/** Builds the stand-in unless an image of the same tarball exists; resolves with its name. */
export function ensureStandinImage(): string {
  const tarball = packTarball();
  // The recipe is part of the key: a change to this file rebuilds the image too.
  const sha = createHash('sha256')
    .update(readFileSync(tarball))
    .update(readFileSync(fileURLToPath(import.meta.url)))
    .digest('hex');
  const existing = podman(['images', '--filter', `reference=${STANDIN_IMAGE}`, '--filter', `label=${LABEL}=${sha}`, '--format', '{{.ID}}']).stdout.trim();
  if (existing !== '') return STANDIN_IMAGE;
  const root = tempDir('petstore-standin-');
  // The file system's root: a temporary folder is the owner's alone, and the image's user must walk through it.
  chmodSync(root, 0o755);
  const app = join(root, 'app');
  mkdirSync(app);
  writeFileSync(join(app, 'package.json'), '{"private":true}\n');
  npm(['install', '--omit=dev', '--no-audit', '--no-fund', '--prefer-offline', tarball], app);
  copyNode(root);
  mkdirSync(join(root, 'data'));
  chownSync(join(root, 'data'), 1000, 1000);
  mkdirSync(join(root, 'tmp'), { mode: 0o1777 });
  mkdirSync(join(root, 'etc'));
  writeFileSync(join(root, 'etc', 'passwd'), 'root:x:0:0:root:/root:/bin/sh\nnode:x:1000:1000::/home/node:/bin/sh\n');
  writeFileSync(join(root, 'etc', 'group'), 'root:x:0:\nnode:x:1000:\n');
  const archive = join(tempDir('petstore-standin-tar-'), 'root.tar');
  execFileSync('tar', ['-C', root, '-cf', archive, '.']);
  podman(['import', ...CHANGES.flatMap((c) => ['--change', c]), '--change', `LABEL ${LABEL}=${sha}`, archive, STANDIN_IMAGE], 300_000);
  // Removed now, within the caller's generous timeout, rather than by the harness's cleanup at the file's end.
  for (const dir of [root, dirname(archive)]) rmSync(dir, { recursive: true, force: true });
  return STANDIN_IMAGE;
}

/** This process's Node binary at /usr/local/bin/node, with the shared libraries `ldd` says it links. */
function copyNode(root: string): void {
  const target = join(root, 'usr', 'local', 'bin', 'node');
  mkdirSync(dirname(target), { recursive: true });
  copyFileSync(process.execPath, target);
  const libraries = [...execFileSync('ldd', [process.execPath], { encoding: 'utf8' }).matchAll(/(\/\S+\.so[.\d]*)/g)].map((m) => m[1] as string);
  for (const library of libraries) {
    mkdirSync(join(root, dirname(library)), { recursive: true });
    copyFileSync(library, join(root, library));
  }
}
