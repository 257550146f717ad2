/**
 * `petstore-sandbox/testcontainers` with testcontainers-node, through
 * podman's Docker-compatible API (`podman system service` on a socket of its
 * own: no Docker daemon runs here). Ryuk, testcontainers' reaper, is off:
 * its image comes from a registry this machine cannot reach; each test
 * removes its own containers instead. Ports are published on 127.0.0.1
 * (podman's bridge, netavark with iptables); host networking is run too.
 * The image is a stand-in built from the packed package (see
 * test/support/podman/standin-image.ts). With CI set, a missing podman fails
 * rather than skips.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PetStoreSandboxContainer, type StartedPetStoreSandboxContainer } from '../../src/testcontainers/index.js';
import { podman, podmanMissing, startPodmanService, type PodmanService } from '../support/podman/service.js';
import { ensureStandinImage } from '../support/podman/standin-image.js';

const missing = podmanMissing();
const skip = missing !== undefined && !process.env.CI;
if (skip) console.warn(`The Testcontainers module's test is skipped: ${missing}`);

/** The containers podman holds that were made from `image` (any state). */
const containersOf = (image: string) => podman(['ps', '-a', '--filter', `ancestor=${image}`, '--format', '{{.ID}}']).stdout.trim();

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
    if (missing) throw new Error(`CI is set and podman cannot run: ${missing}`);
    image = ensureStandinImage();
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
      expect(podman(['port', sandbox.getId()]).stdout).toMatch(/^4010\/tcp -> 127\.0\.0\.1:\d+$/m);
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
    // The image listens on 0.0.0.0, where the sandbox refuses its documented default admin token.
    const container = new PetStoreSandboxContainer(image).withAdminToken('sandbox-admin').withStartupTimeout(60_000);
    await expect(container.start()).rejects.toThrow(/exited \(code 2\)[\s\S]*admin/);
    expect(containersOf(image)).toBe('');
  });
});
