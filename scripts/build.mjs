#!/usr/bin/env node
/**
 * The build behind `npm start` and `npm run cli`: the server bundle
 * (src/ -> dist/src/bin.js, and the package's entries dist/index.js,
 * dist/middleware.js and dist/cli.js, sharing dist/chunks/; the browser build of
 * petstore-sandbox/msw, dist/browser/msw.js with its own chunks) and the browser
 * pages (web/ -> dist/ui), each
 * rebuilt only when its inputs changed since the last build. What the last
 * build was made from is a hash per part in dist/.build-stamp.json; a current
 * build costs one hash of about a megabyte of sources, so a start is not
 * held up by a type-check and two bundles. Type-checking is `npm run
 * typecheck` (in `npm test`); `npm run build` type-checks, then runs this
 * with `--force`.
 *
 * Plain JavaScript run by node: loading tsx would cost a start more than the
 * check itself. Content hashes, not modification times, so a checkout or a
 * copy that touches files without changing them rebuilds nothing.
 */
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { packageBundleOptions } from './server-bundle.mjs';
import { browserBundleOptions } from './browser-bundle.mjs';
import { verifyBundleOptions, verifyHooksBundleOptions } from './verify-bundle.mjs';
import { writeBundledLicenses } from './bundled-licenses.mjs';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const STAMP = join(ROOT, 'dist', '.build-stamp.json');
/** esbuild's metafiles of the last build of each bundled part, from which the bundled libraries' notices are written. */
const METAFILES = join(ROOT, 'dist', '.metafiles');
const NOTICES = join(ROOT, 'dist', 'THIRD-PARTY-LICENSES.md');
/** Inputs of every part: this script, and the lock file that pins esbuild and the bundled libraries. */
const COMMON = ['scripts/build.mjs', 'scripts/bundled-licenses.mjs', 'package-lock.json'];

/** Each part: the files and folders it is made from, a file whose absence means it was never built, and how to build it. */
const PARTS = {
  server: {
    inputs: ['src', 'spec', 'fixtures', 'package.json', 'tsconfig.json', 'scripts/server-bundle.mjs', 'scripts/browser-bundle.mjs', ...COMMON],
    output: 'dist/src/bin.js',
    build: buildServer,
  },
  verify: {
    inputs: ['contracts', 'src', 'spec', 'package.json', 'scripts/verify-bundle.mjs', 'scripts/server-bundle.mjs', ...COMMON],
    output: 'dist/verify/command.js',
    build: buildVerify,
  },
  ui: {
    inputs: ['web', ...COMMON],
    output: 'dist/ui/console/index.html',
    build: buildUi,
  },
};

/** The files of an input: a file itself, or every file under a folder; none if it does not exist. */
function filesOf(input) {
  const full = join(ROOT, input);
  if (!existsSync(full)) return [];
  if (!statSync(full).isDirectory()) return [full];
  return readdirSync(full, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath ?? e.path, e.name));
}

/** A hash of the names and contents of a part's inputs, sorted so that the order a folder lists them in does not matter. */
function hashOf(inputs) {
  const hash = createHash('sha256');
  for (const file of inputs.flatMap(filesOf).sort()) hash.update(relative(ROOT, file)).update('\0').update(readFileSync(file)).update('\0');
  return hash.digest('hex');
}

/** The executable and the package's entries, ESM, with the code they share in chunks (named by hash: the old ones go first). */
async function buildServer() {
  rmSync(join(ROOT, 'dist', 'chunks'), { recursive: true, force: true });
  rmSync(join(ROOT, 'dist', 'browser'), { recursive: true, force: true });
  const server = await build({ ...packageBundleOptions(ROOT, join(ROOT, 'dist')), metafile: true });
  // The browser's build of petstore-sandbox/msw: a bundle of its own, with its own chunks (no Node code to share).
  const browser = await build({ ...browserBundleOptions(ROOT, join(ROOT, 'dist', 'browser')), metafile: true });
  saveMetafiles('server', [server.metafile, browser.metafile]);
}

/** Keeps a part's metafiles for the notices, which every part's bundles contribute to. */
function saveMetafiles(part, metafiles) {
  mkdirSync(METAFILES, { recursive: true });
  writeFileSync(join(METAFILES, `${part}.json`), JSON.stringify(metafiles));
}

/** `petstore-sandbox verify`: the checks and their Dredd hooks, in dist/verify/ (the old chunks go first). */
async function buildVerify() {
  rmSync(join(ROOT, 'dist', 'verify'), { recursive: true, force: true });
  const checks = await build({ ...verifyBundleOptions(ROOT, join(ROOT, 'dist', 'verify')), metafile: true });
  const hooks = await build({ ...verifyHooksBundleOptions(ROOT, join(ROOT, 'dist', 'verify', 'dredd-hooks')), metafile: true });
  saveMetafiles('verify', [checks.metafile, hooks.metafile]);
}

/** The pages, by web/build.ts (TypeScript, so through tsx: only paid when the pages changed). */
function buildUi() {
  const run = spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'web', 'build.ts')], { cwd: ROOT, stdio: 'inherit' });
  if (run.status !== 0) throw new Error(`web/build.ts failed (${run.signal ?? `exit code ${run.status}`})`);
}

function readStamp() {
  try {
    return JSON.parse(readFileSync(STAMP, 'utf8'));
  } catch {
    return {};
  }
}

/** Why a part must be built, or undefined when it is current. */
function reasonToBuild(name, part, hash) {
  if (force) return 'forced';
  if (!existsSync(join(ROOT, part.output)) || stamp[name] === undefined) return 'not built yet';
  return stamp[name] === hash ? undefined : 'sources changed';
}

const force = process.argv.includes('--force');
const stamp = readStamp();
let changed = false;
for (const [name, part] of Object.entries(PARTS)) {
  const hash = hashOf(part.inputs);
  const reason = reasonToBuild(name, part, hash);
  if (reason === undefined) continue;
  process.stderr.write(`build: ${name} (${reason})\n`);
  await part.build();
  stamp[name] = hash;
  changed = true;
}
if (changed) {
  const saved = ['server', 'verify'].filter((part) => existsSync(join(METAFILES, `${part}.json`)));
  writeBundledLicenses(
    ROOT,
    saved.flatMap((part) => JSON.parse(readFileSync(join(METAFILES, `${part}.json`), 'utf8'))),
    NOTICES,
  );
  writeFileSync(STAMP, `${JSON.stringify(stamp, null, 2)}\n`);
}
