/**
 * The image, built and run: the Dockerfile as users build it (on a stand-in
 * for its base image, see test/support/container/base-image.ts), built and
 * run with Debian's podman, and checked from outside as an operator would:
 * ready and healthy, as the unprivileged `node` user, its data kept on the
 * volume across containers, draining and exiting 0 on SIGTERM, and refusing
 * the documented admin token beyond loopback exactly as outside a container.
 * It prints the image's size, its build time and the time to ready.
 *
 * Without podman, runc and mmdebstrap it is skipped, but fails when CI is
 * set (.ci/run installs them). Every container, volume and image it makes
 * is removed in afterAll; the stand-in base image is kept (built once).
 * PETSTORE_TEST_IMAGE=<image> runs the checks on an image built before
 * (which is then kept), without building one.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEY, tempDir } from '../support/harness.js';
import { runCli } from '../support/spawn.js';
import { containerToolsMissing, podman, podmanResult } from '../support/container/podman.js';
import { buildSandboxImage } from '../support/container/sandbox-image.js';
import { exitCode, freePort, removeAll, startContainer, uniqueName, until200, type Made } from '../support/container/containers.js';

const missing = containerToolsMissing();
const made: Made = { containers: [], volumes: [], images: [] };
const image = process.env.PETSTORE_TEST_IMAGE ?? `localhost/${uniqueName('petstore-sandbox')}:test`;
const READY_MS = 60_000;

describe.skipIf(missing.length > 0 && !process.env.CI)('the image, built with the Dockerfile and run with podman', { timeout: 180_000 }, () => {
  beforeAll(() => {
    if (missing.length > 0) throw new Error(`CI must have ${missing.join(', ')} (.ci/run installs them)`);
    if (!process.env.PETSTORE_TEST_IMAGE) made.images.push(image);
    const buildMs = process.env.PETSTORE_TEST_IMAGE ? 0 : buildSandboxImage(image);
    const size = Number(podman(['image', 'inspect', '--format', '{{.Size}}', image]).trim());
    console.log(`image ${image}: ${(size / 1e6).toFixed(0)} MB, built in ${(buildMs / 1000).toFixed(0)} s`);
  }, 1_500_000);
  afterAll(() => removeAll(made), 120_000);

  // One container is checked in turn (ready, healthy, its user, a create, SIGTERM) and a second serves
  // its data from the same volume: each container costs tens of seconds on the VFS storage driver.
  const volume = uniqueName('petstore-test-data');
  let first = '';
  let port = 0;
  let created = '';
  const headers = { Authorization: `Bearer ${KEY}`, 'Content-Type': 'application/json' };

  it('becomes ready (/readyz 200) and its HEALTHCHECK passes, as the node user (uid 1000)', async () => {
    made.volumes.push(volume);
    port = await freePort();
    const start = Date.now();
    first = startContainer(made, image, { port, volume, env: { PETSTORE_SHUTDOWN_DELAY: '3' } });
    const afterRun = await until200(`http://127.0.0.1:${port}/readyz`, READY_MS);
    console.log(`time to ready: ${Date.now() - start} ms from podman run (${afterRun} ms after it returned)`);
    const health = podmanResult(['healthcheck', 'run', first]);
    expect(health.status, health.stderr).toBe(0);
    const status = podman(['exec', first, 'cat', '/proc/1/status', '/proc/1/cmdline']);
    expect(status).toMatch(/^Uid:\s+1000\s+1000\s+1000\s+1000$/m);
    expect(status).toContain('petstore-sandbox/dist/src/bin.js');
    expect(podman(['exec', first, 'id', '-nu', '1000']).trim()).toBe('node');
    expect(podman(['exec', first, 'stat', '-c', '%u', '/data/db.json']).trim()).toBe('1000');
  });

  it('drains on SIGTERM (/readyz 503 while it still serves) and exits 0', async () => {
    const create = await fetch(`http://127.0.0.1:${port}/v1/pets`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ name: 'Kept', categoryId: 3, status: 'pending' }),
    });
    expect(create.status).toBe(201);
    created = ((await create.json()) as { id: string }).id;
    podman(['kill', '--signal', 'TERM', first]);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await fetch(`http://127.0.0.1:${port}/readyz`)).status).toBe(503);
    expect((await fetch(`http://127.0.0.1:${port}/v1/pets/${created}`, { headers })).status).toBe(200);
    expect(exitCode(first)).toBe(0);
    const logs = podman(['logs', first]);
    expect(logs).toContain('"msg":"SIGTERM: /readyz answers 503');
    expect(logs).toContain('"msg":"stopped"');
  });

  it('keeps a create on its volume: a new container on the same volume serves it', async () => {
    expect(created).not.toBe('');
    podman(['rm', '--volumes', first]);
    startContainer(made, image, { port, volume });
    await until200(`http://127.0.0.1:${port}/readyz`, READY_MS);
    const read = await fetch(`http://127.0.0.1:${port}/v1/pets/${created}`, { headers });
    expect(read.status).toBe(200);
    expect(await read.json()).toMatchObject({ id: created, name: 'Kept' });
  });

  it('refuses --host 0.0.0.0 with the default admin token: exit 2 and the message it gives outside a container', async () => {
    const name = uniqueName('petstore-test');
    made.containers.push(name);
    const run = podmanResult(['run', '--name', name, '--network', 'host', '--env', 'PETSTORE_API_KEYS=own-key', image, '--host', '0.0.0.0']);
    // podman's own lines (its health check timers need systemd, which this VM lacks) are not the sandbox's.
    const inside = { ...run, stderr: run.stderr.replace(/^time="[^"]*" level=\w+ msg=.*\n/gm, '') };
    const outside = await runCli(['--host', '0.0.0.0', '--data', join(tempDir(), 'db.json')], { PETSTORE_API_KEYS: 'own-key', PETSTORE_LOG_FORMAT: 'json' });
    expect(outside.code).toBe(2);
    expect(inside.status).toBe(2);
    expect(inside.stderr).toContain('the admin token ');
    expect(inside.stderr).toBe(outside.stderr);
    expect(inside.stdout).not.toContain('listening');
  });
});
