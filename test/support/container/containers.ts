/**
 * Containers of the sandbox's image for one test file: each started with
 * host networking on a port of 127.0.0.1 chosen here (host networking is
 * how containers reach the network in this VM), each remembered so that
 * `removeAll` (in the file's `afterAll`) takes every container, volume and
 * image the file made away, whatever failed.
 */
import { randomBytes } from 'node:crypto';
import { freePort } from '../../../src/testcontainers/host-port.js';
import { podman, podmanResult } from './podman.js';

/** A port of 127.0.0.1 that was free a moment ago (a container's sandbox listens on it): the module's own rule. */
export { freePort };

/** What a test file made: removed by `removeAll`. */
export interface Made {
  containers: string[];
  volumes: string[];
  images: string[];
}

/** A unique name for something a test makes. */
export const uniqueName = (prefix: string): string => `${prefix}-${randomBytes(4).toString('hex')}`;

/** Starts a detached container of `image` (its sandbox on 127.0.0.1:`port`); returns its name. */
export function startContainer(made: Made, image: string, options: { port: number; volume?: string; env?: Record<string, string> }): string {
  const name = uniqueName('petstore-test');
  made.containers.push(name);
  const env = { PETSTORE_HOST: '127.0.0.1', PETSTORE_PORT: String(options.port), ...options.env };
  const volume = options.volume === undefined ? [] : ['--volume', `${options.volume}:/data`];
  podman(['run', '--detach', '--name', name, '--network', 'host', ...volume, ...Object.entries(env).flatMap(([k, v]) => ['--env', `${k}=${v}`]), image]);
  return name;
}

/** Polls `url` until it answers 200; returns the milliseconds it took, or throws after `timeoutMs`. */
export async function until200(url: string, timeoutMs: number): Promise<number> {
  const start = Date.now();
  for (;;) {
    const status = await fetch(url, { signal: AbortSignal.timeout(2_000) }).then(
      (r) => r.status,
      () => 0,
    );
    if (status === 200) return Date.now() - start;
    if (Date.now() - start > timeoutMs) throw new Error(`${url} did not answer 200 within ${timeoutMs} ms (last: ${status})`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A container's exit code once it has stopped (waits up to `timeoutMs`). */
export function exitCode(name: string, timeoutMs = 60_000): number {
  return Number(podman(['wait', name], { timeoutMs }).trim());
}

/** Removes every container, volume and image `made` lists; reports what could not be removed. */
export function removeAll(made: Made): void {
  const failures = [
    ...made.containers.map((name) => podmanResult(['rm', '--force', '--volumes', '--time', '0', name])),
    ...made.volumes.map((name) => podmanResult(['volume', 'rm', '--force', name])),
    ...made.images.map((name) => podmanResult(['rmi', '--force', name])),
  ].filter((run) => run.status !== 0 && !/no such|not known/i.test(run.stderr));
  if (failures.length > 0) throw new Error(`not removed: ${failures.map((f) => f.stderr).join('\n')}`);
}
