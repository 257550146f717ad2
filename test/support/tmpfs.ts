/**
 * A real small file system for storage-failure tests: a tmpfs of a given
 * size (mounting needs root, as CI has), filled up to leave a chosen number
 * of bytes free, remounted read-only and back.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Why tmpfs tests cannot run here, or undefined when they can. */
export const tmpfsUnavailable: string | undefined = process.getuid?.() === 0 ? undefined : 'mounting a tmpfs needs root (CI runs as root)';

export interface Tmpfs {
  dir: string;
  /** Bytes free now. */
  free(): number;
  /** Writes a filler file so that about `leave` bytes stay free; returns a function that removes it. */
  fill(leave: number): () => void;
  /** Remounts read-only (true) or read-write (false). */
  readOnly(on: boolean): void;
  unmount(): void;
}

/** Mounts a tmpfs of `bytes` on a new temporary folder. Unmount it in `finally`. */
export function mountTmpfs(bytes: number): Tmpfs {
  const dir = mkdtempSync(join(tmpdir(), 'petstore-tmpfs-'));
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${bytes},mode=0777`, 'tmpfs', dir]);
  let fillers = 0;
  const free = () => {
    const s = statfsSync(dir);
    return s.bavail * s.bsize;
  };
  return {
    dir,
    free,
    fill(leave) {
      const file = join(dir, `.filler-${(fillers += 1)}`);
      writeFileSync(file, Buffer.alloc(Math.max(0, free() - leave)));
      return () => rmSync(file, { force: true });
    },
    readOnly(on) {
      execFileSync('mount', ['-o', `remount,${on ? 'ro' : 'rw'}`, dir]);
    },
    unmount() {
      execFileSync('umount', ['-l', dir]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
