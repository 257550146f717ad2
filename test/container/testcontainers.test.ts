/**
 * `petstore-sandbox/testcontainers` with testcontainers-node, through
 * podman's Docker-compatible API (`podman system service` on a socket of its
 * own: no Docker daemon runs here). Ryuk, testcontainers' reaper, is off:
 * its image comes from a registry this machine cannot reach; each test
 * removes its own containers instead. Ports are published on 127.0.0.1
 * (podman's bridge, netavark with iptables); host networking is run too.
 * The image is the Dockerfile's run stage on the stand-in base image
 * (test/support/podman/sandbox-image.ts). With CI set, missing container
 * tools fail the test rather than skip it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PetStoreSandboxContainer, type StartedPetStoreSandboxContainer } from '../../src/testcontainers/index.js';
import { containerToolsMissing, podman } from '../support/container/podman.js';
import { ensureTestcontainersImage } from '../support/podman/sandbox-image.js';
import { startPodmanService, type PodmanService } from '../support/podman/service.js';

const missing = containerToolsMissing();
const skip = missing.length > 0 && !process.env.CI;
if (skip) console.warn(`The Testcontainers module's test is skipped: not installed: ${missing.join(', ')}`);

/** The containers podman holds that were made from `image` (any state). */
const containersOf = (image: string) => podman(['ps', '-a', '--filter', `ancestor=${image}`, '--format', '{{.ID}}']).trim();

/** Runs `use` on a started sandbox container and stops (and so removes) it whatever happens. */
async function withStarted(container: PetStoreSandboxContainer, use: (started: StartedPetStoreSandboxContainer) => Promise<void>) {
  const started = await container.start();
  try {
    await use(started);
  } finally {
    await started.stop();
  }
}

describe.skipIf(skip)('petstore-sandbox/testcontainers through podman system service', { timeout: 180_000 }, () => {
  let service: PodmanService;
  let image: string;
  const saved = { ...process.env };
  beforeAll(async () => {
    if (missing.length > 0) throw new Error(`CI is set and the container tools are missing: ${missing.join(', ')}`);
    image = ensureTestcontainersImage();
    service = await startPodmanService();
    process.env.DOCKER_HOST = service.dockerHost;
    process.env.TESTCONTAINERS_RYUK_DISABLED = 'true';
    // testcontainers finds /.dockerenv here, takes itself to be inside a container and would reach published
    // ports through podman's bridge gateway; Docker's host is this very machine: its loopback.
    process.env.TESTCONTAINERS_HOST_OVERRIDE = '127.0.0.1';
  }, 900_000);
  afterAll(async () => {
    process.env = saved;
    await service?.stop();
    if (image) expect(containersOf(image), 'every container removed').toBe('');
  });

  it('starts the image with a published port on 127.0.0.1, serves /v1 at baseUrl and the workspace controls over HTTP', async () => {
    const container = new PetStoreSandboxContainer(image, { count: 3, seed: 7 }).withFlags('--journal-size', '2');
    await withStarted(container, async (sandbox) => {
      expect(sandbox.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(podman(['port', sandbox.getId()])).toMatch(/^4010\/tcp -> 127\.0\.0\.1:\d+$/m);
      const auth = { authorization: `Bearer ${sandbox.apiKeys[0]}`, 'content-type': 'application/json' };
      const created = await fetch(`${sandbox.baseUrl}/pets`, { method: 'POST', headers: auth, body: JSON.stringify({ name: 'Rex', categoryId: 1 }) });
      expect(created.status).toBe(201);
      expect(await created.json()).toMatchObject({ id: 4, name: 'Rex' });

      const ws = sandbox.workspace();
      expect((await ws.export()).pets.map((p) => p.name)).toContain('Rex');
      await ws.faults.add({ operationId: 'listPets', status: 503, count: 1 });
      expect((await fetch(`${sandbox.baseUrl}/pets`, { headers: auth })).status).toBe(503);
      expect((await fetch(`${sandbox.baseUrl}/pets`, { headers: auth })).status).toBe(200);
      // --journal-size 2 reached the sandbox: three requests, two kept.
      expect((await ws.journal.read()).entries.map((e) => e.status)).toEqual([503, 200]);
      expect(await ws.reset()).toMatchObject({ count: 3 });
      await expect(ws.restore('no-such-checkpoint')).rejects.toMatchObject({ name: 'ControlError', status: 404 });
    });
  });

  it('runs in the host network when asked, listening on 127.0.0.1 at a free port', async () => {
    const container = new PetStoreSandboxContainer(image).withNetworkMode('host').withApiKeys('key-a', 'key-b');
    await withStarted(container, async (sandbox) => {
      expect(sandbox.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const res = await fetch(`${sandbox.baseUrl}/pets?limit=1`, { headers: { authorization: 'Bearer key-b' } });
      expect(res.status).toBe(200);
      expect((await sandbox.workspace('key-b').journal.read()).entries).toHaveLength(1);
      expect((await sandbox.workspace('key-a').journal.read()).entries).toHaveLength(0);
    });
  });

  it("fails start() with the sandbox's own refusal, and removes the container, when the sandbox cannot start", async () => {
    // A flag the sandbox refuses: it exits 2 before it listens.
    const container = new PetStoreSandboxContainer(image).withFlags('--journal-size=-1').withStartupTimeout(60_000);
    await expect(container.start()).rejects.toThrow(/exited \(code 2\)[\s\S]*--journal-size/);
    expect(containersOf(image)).toBe('');
  });

  it('removes a container the runtime could not start (testcontainers removes only one that failed its wait)', async () => {
    const container = new PetStoreSandboxContainer(image).withEntrypoint(['/no/such/program']);
    await expect(container.start()).rejects.toThrow(/no\/such\/program/);
    expect(containersOf(image)).toBe('');
  });
});
