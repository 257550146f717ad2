/**
 * Podman's Docker-compatible API (`podman system service`) on a socket of
 * its own, for testcontainers-node: rootful, `vfs` storage and `cgroupfs`
 * (what this VM allows), containers run through runtime-wrapper.sh. The
 * service runs until `stop()`, which ends it by its pid.
 */
import { spawn, spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { existsSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempDir } from '../harness.js';
import { collectOutput } from '../spawn.js';

export const RUNTIME_WRAPPER = fileURLToPath(new URL('./runtime-wrapper.sh', import.meta.url));
/** podman's global options on this machine, for the service and the CLI alike (so both see the same images). */
export const PODMAN_OPTIONS = ['--storage-driver', 'vfs', '--cgroup-manager', 'cgroupfs', '--runtime', RUNTIME_WRAPPER];

/** Why podman cannot run here (not installed, or too old to serve the API), or undefined when it can. */
export function podmanMissing(): string | undefined {
  const version = spawnSync('podman', ['--version'], { encoding: 'utf8' });
  if (version.error) return `podman is not installed (${version.error.message})`;
  if (spawnSync('jq', ['--version']).error) return 'jq (which the runtime wrapper uses) is not installed';
  return undefined;
}

/** Runs the podman CLI with the machine's options; throws with its output when it fails. */
export function podman(args: string[], timeoutMs = 120_000): SpawnSyncReturns<string> {
  const run = spawnSync('podman', [...PODMAN_OPTIONS, ...args], { encoding: 'utf8', timeout: timeoutMs });
  if (run.status !== 0) throw new Error(`podman ${args.join(' ')} failed (${run.status ?? run.signal}): ${run.stderr || run.error?.message}`);
  return run;
}

export interface PodmanService {
  /** `unix:///…/podman.sock`: the value for `DOCKER_HOST`. */
  dockerHost: string;
  stop(): Promise<void>;
}

/** Starts the API service on a new socket and resolves once it answers `/_ping`. */
export async function startPodmanService(timeoutMs = 30_000): Promise<PodmanService> {
  const socket = join(tempDir('petstore-podman-'), 'podman.sock');
  const child = spawn('podman', [...PODMAN_OPTIONS, 'system', 'service', '--time=0', `unix://${socket}`], { stdio: ['ignore', 'pipe', 'pipe'] });
  const output = collectOutput(child);
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const ended = new Promise((resolve) => child.once('exit', resolve));
    process.kill(child.pid as number, 'SIGTERM');
    await Promise.race([ended, new Promise((resolve) => setTimeout(resolve, 10_000))]);
    if (child.exitCode === null && child.signalCode === null) process.kill(child.pid as number, 'SIGKILL');
  };
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`podman system service exited (${child.exitCode}): ${output.all()}`);
    if (existsSync(socket) && (await ping(socket))) return { dockerHost: `unix://${socket}`, stop };
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  await stop();
  throw new Error(`podman system service did not answer on ${socket} within ${timeoutMs} ms: ${output.all()}`);
}

/** Whether the API answers `/_ping` on the socket. */
function ping(socketPath: string): Promise<boolean> {
  return new Promise((resolve) => {
    const req = request({ socketPath, path: '/_ping', timeout: 2_000 }, (res) => {
      res.resume();
      resolve(res.statusCode === 200);
    });
    req.on('error', () => resolve(false));
    req.on('timeout', () => req.destroy());
    req.end();
  });
}
