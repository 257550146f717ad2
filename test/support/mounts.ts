/**
 * Small file systems for storage-failure tests: a tmpfs of a few MiB that
 * fills up, or is remounted read-only, under the sandbox's data folder.
 * Mounting needs root; `tmpfsUnavailable()` says why a test must skip.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readdirSync, readFileSync, readlinkSync, rmSync, statfsSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

let probed: string | null | undefined;

/** Why a tmpfs cannot be mounted here (not root, or mount refused), or `undefined` when it can. Probes once. */
export function tmpfsUnavailable(): string | undefined {
  if (probed !== undefined) return probed ?? undefined;
  if (process.getuid?.() !== 0) probed = 'mounting a tmpfs needs root';
  else {
    const dir = mkdtempSync(join(tmpdir(), 'petstore-probe-'));
    const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', dir], { encoding: 'utf8' });
    if (mounted.status === 0) spawnSync('umount', [dir]);
    rmSync(dir, { recursive: true, force: true });
    probed = mounted.status === 0 ? null : `mount -t tmpfs failed: ${mounted.stderr.trim() || mounted.error?.message}`;
  }
  return probed ?? undefined;
}

/** Mounts a tmpfs of `bytes` on a new temporary folder and returns it; `unmountTmpfs` removes both. */
export function mountTmpfs(bytes: number, prefix = 'petstore-tmpfs-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${bytes},mode=0755`, 'tmpfs', dir]);
  return dir;
}

/** Unmounts (lazily if something still holds it, so a failed test cannot leave it mounted) and removes the folder. */
export function unmountTmpfs(dir: string): void {
  if (spawnSync('umount', [dir]).status !== 0) spawnSync('umount', ['-l', dir]);
  rmSync(dir, { recursive: true, force: true });
}

/** Remounts the tmpfs at `dir` read-only or read-write; returns mount's error text, or '' on success. */
export function remount(dir: string, mode: 'ro' | 'rw'): string {
  const result = spawnSync('mount', ['-o', `remount,${mode}`, dir], { encoding: 'utf8' });
  return result.status === 0 ? '' : result.stderr.trim() || `mount exited with ${result.status}`;
}

/** Bytes an unprivileged writer can still use on the file system holding `dir`. */
export function freeBytes(dir: string): number {
  const s = statfsSync(dir);
  return s.bavail * s.bsize;
}

/**
 * Writes `file` until only about `leave` bytes stay free (0: until the
 * file system refuses another byte). Returns the bytes written.
 */
export function fill(file: string, leave = 0): number {
  const chunk = Buffer.alloc(64 * 1024, 0x2e);
  const fd = openSync(file, 'a');
  let written = 0;
  try {
    for (;;) {
      const room = freeBytes(dirname(file)) - leave;
      if (leave > 0 && room <= 0) break;
      const size = leave > 0 ? Math.min(chunk.length, room) : chunk.length;
      try {
        written += writeSync(fd, chunk, 0, size);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOSPC') break;
        throw error;
      }
    }
  } finally {
    closeSync(fd);
  }
  return written;
}

/**
 * Files under `dir` that process `pid` holds open for writing (from
 * /proc/<pid>/fd and the access mode in /proc/<pid>/fdinfo).
 */
export function filesOpenForWriting(pid: number, dir: string): string[] {
  const found: string[] = [];
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    let target: string;
    let flags: number;
    try {
      target = readlinkSync(`/proc/${pid}/fd/${fd}`);
      flags = parseInt(/^flags:\s*([0-7]+)/m.exec(readFileSync(`/proc/${pid}/fdinfo/${fd}`, 'utf8'))?.[1] ?? '0', 8);
    } catch {
      continue; // Closed while we looked.
    }
    // O_ACCMODE: 1 is O_WRONLY, 2 is O_RDWR.
    if (target.startsWith(`${dir}/`) && (flags & 3) !== 0) found.push(target);
  }
  return found;
}

/** How many descriptors process `pid` has open. */
export function openDescriptors(pid: number): number {
  return readdirSync(`/proc/${pid}/fd`).length;
}
