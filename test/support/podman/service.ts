/**
 * Podman's Docker-compatible API (`podman system service`) on a socket of
 * its own, for testcontainers-node, with the container tests' global options
 * (test/support/container/podman.ts: their storage root, so the API sees
 * their images; VFS, cgroupfs, the runtime wrapper that drops
 * `process.rlimits`). The service runs until `stop()`, which ends it by its
 * pid.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { PODMAN_GLOBAL_ARGS } from '../container/podman.js';
import { tempDir } from '../harness.js';
import { collectOutput } from '../spawn.js';

export interface PodmanService {
  /** `unix:///…/podman.sock`: the value for `DOCKER_HOST`. */
  dockerHost: string;
  stop(): Promise<void>;
}

/** Starts the API service on a new socket and resolves once it answers `/_ping`. */
export async function startPodmanService(timeoutMs = 30_000): Promise<PodmanService> {
  const socket = join(tempDir('petstore-podman-'), 'podman.sock');
  const child = spawn('podman', [...PODMAN_GLOBAL_ARGS, 'system', 'service', '--time=0', `unix://${socket}`], { stdio: ['ignore', 'pipe', 'pipe'] });
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
