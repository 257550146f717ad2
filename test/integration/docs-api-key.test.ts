/**
 * The API key the docs page authorizes "try it" with
 * (`/docs/api-key.json`, docs/qa-guide.md): the sandbox's first key, told
 * to a browser on this machine only. A remote peer, or a request a proxy
 * passed on, is told none, and nothing else the page loads names the key:
 * a key from --api-keys-file never leaves loopback through the pages. A
 * remote peer is simulated in process (test/support/remote-peer.ts); with
 * the documented key it would be refused anyway, so the sandbox here has
 * its own secrets and an allowed name.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSandbox, tempDir, type TestSandbox } from '../support/harness.js';
import { requestFromPeer } from '../support/remote-peer.js';

const OWN_KEY = 'team-key-0123456789abcdef';
const HOST = 'sandbox.example';

let sb: TestSandbox;
beforeAll(async () => {
  // The pages are built files (dist/ui): build them as `npm run build` does.
  await import('../../web/build.js');
  const secrets = tempDir('petstore-secrets-');
  const keys = join(secrets, 'api-keys');
  const token = join(secrets, 'admin-token');
  writeFileSync(keys, `# the team's keys\n${OWN_KEY}\nsecond-key-0123456789\n`, { mode: 0o600 });
  writeFileSync(token, 'team-admin-0123456789abcdef\n', { mode: 0o600 });
  sb = await startTestSandbox(['--api-keys-file', keys, '--admin-token-file', token, '--allowed-hosts', HOST]);
}, 60_000);
afterAll(() => sb?.stop());

const ask = (target: string, peer?: string, headers: Record<string, string> = {}) => requestFromPeer(sb.server, { target, host: HOST, headers }, peer);

describe("the docs page's API key", () => {
  it('is the first key of --api-keys-file for a loopback peer, IPv4 and IPv6, and no cache may keep it', async () => {
    for (const peer of ['127.0.0.1', '::1', '::ffff:127.0.0.1']) {
      const res = await ask('/docs/api-key.json', peer);
      expect(res.status, peer).toBe(200);
      expect(res.headers['content-type']).toBe('application/json');
      expect(res.headers['cache-control']).toBe('no-store');
      expect(JSON.parse(res.body), peer).toEqual({ apiKey: OWN_KEY });
    }
  });

  it('is none for a remote peer, whose pages still load and name no key', async () => {
    const res = await ask('/docs/api-key.json');
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(JSON.parse(res.body)).toEqual({ apiKey: null });
    for (const target of ['/docs', '/docs/control', '/docs/assets/docs.js', '/docs/openapi.json', '/docs/sandbox-control.json']) {
      const page = await ask(target);
      expect(page.status, target).toBe(200);
      expect(page.body, target).not.toContain(OWN_KEY);
    }
  });

  it('is none for a loopback peer passing on for someone else (a proxy on this machine)', async () => {
    for (const header of ['x-forwarded-for', 'forwarded', 'x-real-ip']) {
      const res = await ask('/docs/api-key.json', '127.0.0.1', { [header]: header === 'forwarded' ? 'for=203.0.113.7' : '203.0.113.7' });
      expect(JSON.parse(res.body), header).toEqual({ apiKey: null });
    }
  });

  it('answers HEAD without the key, and is refused to a Host not allowed before anything (DNS rebinding)', async () => {
    const head = await requestFromPeer(sb.server, { method: 'HEAD', target: '/docs/api-key.json', host: HOST }, '127.0.0.1');
    expect(head.status).toBe(200);
    expect(head.body).toBe('');
    const rebound = await requestFromPeer(sb.server, { target: '/docs/api-key.json', host: 'attacker.example' }, '127.0.0.1');
    expect(rebound.status).toBe(403);
    expect(rebound.body).not.toContain(OWN_KEY);
    expect(JSON.parse(rebound.body)).toMatchObject({ code: 'forbidden', status: 403 });
  });
});
