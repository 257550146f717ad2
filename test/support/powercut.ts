/**
 * A disk that a test can cut the power of: `powercut-fs.py`, a FUSE file
 * system that keeps only what was fsynced (file data at its fsync, a
 * folder's entries at the folder's fsync, as LazyFS does), mounted over an
 * image folder. After a cut every operation hangs, as on a machine that
 * stopped; `stop()` unmounts and returns the image of what survived, which
 * the next `mountPowerCut` serves as a rebooted disk.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const FS = fileURLToPath(new URL('./powercut-fs.py', import.meta.url));
/** Debian's Python, which has pyfuse3 (`apt-get install fuse3 python3-pyfuse3`); a `python3` on PATH may not. */
const PYTHON = '/usr/bin/python3';

/** Why the power-cut file system cannot run here, or undefined when it can. */
export function powerCutUnavailable(): string | undefined {
  if (process.getuid?.() !== 0) return 'mounting a FUSE file system needs root here';
  if (!existsSync('/dev/fuse')) return 'no /dev/fuse';
  const probe = spawnSync(PYTHON, ['-c', 'import pyfuse3, trio'], { encoding: 'utf8' });
  if (probe.status !== 0) return `${PYTHON} cannot import pyfuse3 (apt-get install fuse3 python3-pyfuse3)`;
  // Mounted once, empty, and unmounted: a container without the right to mount says so here.
  const dir = mkdtempSync(join(tmpdir(), 'petstore-fuse-probe-'));
  try {
    mkdirSync(join(dir, 'image'));
    const mounted = spawnSync(PYTHON, [FS, join(dir, 'image'), dir, join(dir, 'out')], { input: 'exit\n', encoding: 'utf8', timeout: 20_000 });
    return mounted.status === 0 ? undefined : `the FUSE file system cannot be mounted: ${mounted.stderr.trim().split('\n').at(-1) ?? mounted.status}`;
  } finally {
    spawnSync('umount', ['-l', dir]);
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Operations a cut can be armed at (see powercut-fs.py). */
export type CutOp = 'write' | 'fsync' | 'fsyncdir' | 'rename' | 'mkdir' | 'create' | 'link' | 'unlink' | 'truncate';

export interface PowerCutDisk {
  /** Where the file system is mounted. */
  readonly dir: string;
  /** Cuts the power at the `nth` `op` on a name matching `name`, before or after it is carried out; or (`fail`) fails that one with EIO. */
  arm(op: CutOp, name: RegExp, nth: number, when: 'before' | 'after' | 'fail'): Promise<void>;
  /** Cuts the power now (nothing if it is cut already). */
  cut(): Promise<void>;
  /** Lets the processes caught by the cut exit: call it once they are killed (SIGKILL); they never see what is answered. */
  release(): Promise<void>;
  /** Resolves with what the cut happened at (`rename db.json`, `cut -`) once the power is cut. */
  readonly cutDone: Promise<string>;
  /** Unmounts and returns the image folder of what survived. */
  stop(): Promise<string>;
}

let images = 0;

/** Mounts the image folder `image` at `<work>/mnt`; later images go to `<work>/image-<n>`. Stop it in `finally`. */
export async function mountPowerCut(image: string, work: string): Promise<PowerCutDisk> {
  const dir = join(work, 'mnt');
  mkdirSync(dir, { recursive: true });
  const out = join(work, `image-${(images += 1)}`);
  const child = spawn(PYTHON, [FS, image, dir, out], { stdio: ['pipe', 'pipe', 'pipe'] });
  let errors = '';
  child.stderr?.on('data', (chunk: Buffer) => (errors += chunk.toString()));
  const waiters: { prefix: string; resolve: (line: string) => void }[] = [];
  const seen: string[] = [];
  createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (line) => {
    const at = waiters.findIndex((w) => line.startsWith(w.prefix));
    if (at < 0) return void seen.push(line);
    waiters.splice(at, 1)[0]?.resolve(line);
  });
  const ended = new Promise<void>((resolve) => child.once('close', () => resolve()));
  const next = (prefix: string): Promise<string> => {
    const at = seen.findIndex((line) => line.startsWith(prefix));
    if (at >= 0) return Promise.resolve(seen.splice(at, 1)[0] as string);
    return new Promise((resolve, reject) => {
      waiters.push({ prefix, resolve });
      void ended.then(() => reject(new Error(`powercut-fs ended before "${prefix}":\n${errors}`)));
    });
  };
  // A command after the file system ended (a random cut timed after the round) does nothing.
  child.stdin?.on('error', () => undefined);
  const command = async (line: string) => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.stdin?.write(`${line}\n`);
    await next('ok');
  };
  await next('ready');
  const cutDone = next('cut ').then((line) => line.slice(4));
  cutDone.catch(() => undefined);
  return {
    dir,
    cutDone,
    arm: (op, name, nth, when) => command(`arm ${op} ${name.source} ${nth} ${when}`),
    cut: () => command('cut'),
    release: () => command('release'),
    stop: () => stopFs(child, dir, ended, next).then(() => out),
  };
}

/** Asks the file system to unmount and write its image; unmounts by force if it does not within 20 s. */
async function stopFs(child: ChildProcess, dir: string, ended: Promise<void>, next: (prefix: string) => Promise<string>): Promise<void> {
  const timer = setTimeout(() => {
    spawnSync('umount', ['-l', dir]);
    child.kill('SIGKILL');
  }, 20_000);
  try {
    child.stdin?.write('exit\n');
    await next('dumped');
  } finally {
    clearTimeout(timer);
    await ended;
  }
}

/** For `finally`: unmounts whatever is left mounted at `<work>/mnt`. */
export function unmountPowerCut(work: string): void {
  spawnSync('umount', ['-l', join(work, 'mnt')]);
}
