/**
 * Debian's podman as the container tests run it: rootful, on a storage root
 * of their own (kept between runs, so the stand-in base image is built
 * once), with the VFS storage driver, cgroupfs and host networking, which
 * work in this VM where overlay mounts and container networks may not, and
 * with the runtime wrapper that drops `process.rlimits` (the VM refuses every
 * setrlimit inside a container). Users build and run the image without any
 * of this: it is how the tests reach it here.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The runtime wrapper: runc after deleting process.rlimits from the bundle's config.json. */
export const RUNTIME = fileURLToPath(new URL('runc-no-rlimits', import.meta.url));
/** The storage root the tests share (and the run root beside it). */
export const STORAGE = join(tmpdir(), 'petstore-sandbox-podman');

/**
 * podman's global options for the tests: pass them first on every podman command, and to
 * `podman system service` so that a Docker-compatible client sees the same images.
 */
export const PODMAN_GLOBAL_ARGS: readonly string[] = [
  '--root',
  join(STORAGE, 'root'),
  '--runroot',
  join(STORAGE, 'run'),
  '--storage-driver',
  'vfs',
  '--cgroup-manager',
  'cgroupfs',
  '--events-backend',
  'file',
  '--runtime',
  RUNTIME,
];

/** Runs podman with the tests' global options; returns its stdout, or throws with its stderr. */
export function podman(args: string[], options: { timeoutMs?: number; input?: string } = {}): string {
  return execFileSync('podman', [...PODMAN_GLOBAL_ARGS, ...args], {
    encoding: 'utf8',
    stdio: [options.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    input: options.input,
    timeout: options.timeoutMs ?? 120_000,
    maxBuffer: 64 * 1024 * 1024,
  });
}

/** Like `podman` but never throws: the exit status and both outputs. */
export function podmanResult(args: string[], timeoutMs = 120_000): { status: number | null; stdout: string; stderr: string } {
  const run = spawnSync('podman', [...PODMAN_GLOBAL_ARGS, ...args], { encoding: 'utf8', timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 });
  return { status: run.status, stdout: run.stdout ?? '', stderr: run.stderr ?? '' };
}

/** Whether podman, runc and mmdebstrap are installed (the container tests need all three). */
export function containerToolsMissing(): string[] {
  return ['podman', 'runc', 'mmdebstrap'].filter((tool) => spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0);
}

/** The value of an image's label, or undefined when the image (or the label) is absent. */
export function imageLabel(image: string, label: string): string | undefined {
  const run = podmanResult(['image', 'inspect', '--format', `{{index .Labels "${label}"}}`, image]);
  const value = run.stdout.trim();
  return run.status === 0 && value !== '' && value !== '<no value>' ? value : undefined;
}
