/**
 * One exposure rule on every way in (docs/configuration.md, "Sharing the
 * sandbox"): the Node server, the middleware in a team's Express app, and
 * the fetch handler given its connection's info judge the peer they see.
 * With the documented key or admin token (or an admin token under 16
 * characters) only loopback peers are answered; a `Host` that is not
 * loopback, an address, the listening host or an allowed name is refused
 * first (DNS rebinding). In process, nothing crossed a network: no rule.
 * A remote peer is simulated in process (test/support/remote-peer.ts).
 */
import type { Server } from 'node:http';
import { createServer } from 'node:http';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, type PetstoreSandbox } from '../../src/index.js';
import { petstoreSandbox, type SandboxMiddleware } from '../../src/middleware.js';
import { loadConfig } from '../../src/config/load.js';
import { startSandbox, type Sandbox } from '../../src/server/sandbox.js';
import { requestFromPeer, REMOTE_PEER, type PeerRequest } from '../support/remote-peer.js';

const OWN_KEY = 'team-key-0123456789abcdef';
const OWN_TOKEN = 'team-admin-0123456789abcdef';
const OWN = { apiKeys: [OWN_KEY], adminToken: OWN_TOKEN };
const key = (k: string) => ({ authorization: `Bearer ${k}` });

/** A way in over a network: a server that takes a simulated peer's connection. */
interface NetworkWay {
  name: string;
  /** Where the engine's paths are, under the server: '' or the mount path. */
  base: string;
  open(options: { apiKeys?: string[]; adminToken?: string; allowedHosts?: string[] }): Promise<{ server: Server; close(): Promise<void> }>;
}

const ways: NetworkWay[] = [
  {
    name: 'the Node server',
    base: '',
    async open(options) {
      const argv = ['--store', 'memory', '--port', '0', '--log-level', 'silent'];
      if (options.apiKeys) argv.push('--api-keys', options.apiKeys.join(','));
      if (options.adminToken) argv.push('--admin-token', options.adminToken);
      if (options.allowedHosts) argv.push('--allowed-hosts', options.allowedHosts.join(','));
      const sandbox: Sandbox = await startSandbox(loadConfig(argv, {}).config);
      return { server: sandbox.server, close: () => sandbox.close() };
    },
  },
  {
    name: "the middleware in a team's Express app",
    base: '/api',
    async open(options) {
      const middleware: SandboxMiddleware = petstoreSandbox(options);
      await middleware.sandbox;
      const app = express();
      app.use('/api', middleware);
      app.get('/own', (_req, res) => void res.send('own route'));
      const server = createServer(app);
      return {
        server,
        close: async () => {
          server.close();
          await middleware.close();
        },
      };
    },
  },
];

describe.each(ways)('$name', (way) => {
  const ask = (server: Server, request: PeerRequest, peer?: string) => requestFromPeer(server, { ...request, target: way.base + request.target }, peer);

  describe('with the documented secrets', () => {
    let opened: Awaited<ReturnType<NetworkWay['open']>>;
    beforeAll(async () => void (opened = await way.open({})));
    afterAll(() => opened.close());

    it('refuses a remote peer /v1 and the control plane with 403, naming the options to set', async () => {
      const v1 = await ask(opened.server, { target: '/v1/pets', headers: key('sandbox-key') });
      expect(v1.status).toBe(403);
      expect(JSON.parse(v1.body)).toMatchObject({ code: 'forbidden', status: 403 });
      expect(v1.body).toContain('--api-keys-file');
      expect(v1.body).toContain('--admin-token-file');
      const reset = await ask(opened.server, { method: 'POST', target: '/__sandbox/reset', headers: key('sandbox-admin'), body: '{}' });
      expect(reset.status).toBe(403);
      expect(JSON.parse(reset.body).message).toMatch(/answers only this machine/);
    });

    it('still answers the probes and /metrics to a remote peer, by any name', async () => {
      for (const target of ['/livez', '/readyz', '/metrics'])
        for (const host of ['localhost', 'sandbox-1:4010']) expect((await ask(opened.server, { target, host })).status, `${host}${target}`).toBe(200);
    });

    it('answers a loopback peer, IPv4 and IPv6', async () => {
      for (const peer of ['127.0.0.1', '::1', '::ffff:127.0.0.1'])
        expect((await ask(opened.server, { target: '/v1/pets?limit=1', headers: key('sandbox-key') }, peer)).status, peer).toBe(200);
    });

    it('refuses a Host that is not loopback, an address or allowed, before anything else (DNS rebinding), even from loopback', async () => {
      for (const target of ['/v1/pets', '/__sandbox/mode', '/__sandbox/no/such/path']) {
        const res = await ask(opened.server, { target, host: 'attacker.example:4111', headers: key('sandbox-admin') }, '127.0.0.1');
        expect(res.status, target).toBe(403);
        expect(JSON.parse(res.body).message).toContain('"attacker.example:4111"');
        expect(res.body).toContain('--allowed-hosts');
      }
      const reset = await ask(
        opened.server,
        { method: 'POST', target: '/__sandbox/reset', host: 'attacker.example', headers: key('sandbox-admin'), body: '{}' },
        '127.0.0.1',
      );
      expect(reset.status).toBe(403);
      // A target in absolute form names where it was sent: its authority is judged, not the Host header. (Express routes
      // none such to a mounted middleware.)
      if (way.base === '') {
        const absolute = await requestFromPeer(opened.server, { target: 'http://attacker.example/v1/pets', headers: key('sandbox-key') }, '127.0.0.1');
        expect(absolute.status).toBe(403);
      }
    });

    it('answers loopback names, addresses and no Host at all', async () => {
      // A team's own http.createServer answers a request with no Host 400 itself (Node's requireHostHeader); the sandbox's server lets it through.
      const hosts = ['localhost:4010', 'LOCALHOST', 'dev.localhost', '127.0.0.1:80', '[::1]:4010', '10.1.2.3', ...(way.base === '' ? [''] : [])];
      for (const host of hosts)
        expect((await ask(opened.server, { target: '/v1/pets?limit=1', host, headers: key('sandbox-key') }, '127.0.0.1')).status, host).toBe(200);
    });
  });

  describe('with secrets of its own', () => {
    let opened: Awaited<ReturnType<NetworkWay['open']>>;
    beforeAll(async () => void (opened = await way.open({ ...OWN, allowedHosts: ['.example.test'] })));
    afterAll(() => opened.close());

    it('answers a remote peer on /v1 and the control plane', async () => {
      expect((await ask(opened.server, { target: '/v1/pets?limit=1', headers: key(OWN_KEY) })).status).toBe(200);
      expect((await ask(opened.server, { target: '/__sandbox/mode', headers: key(OWN_TOKEN) })).status).toBe(200);
    });

    it('answers the names --allowed-hosts lists, and only those', async () => {
      for (const host of ['example.test', 'api.example.test:8443'])
        expect((await ask(opened.server, { target: '/v1/pets?limit=1', host, headers: key(OWN_KEY) })).status, host).toBe(200);
      for (const host of ['evil.test', 'example.test.evil.test', 'notexample.test'])
        expect((await ask(opened.server, { target: '/v1/pets?limit=1', host, headers: key(OWN_KEY) })).status, host).toBe(403);
    });
  });

  it('treats an admin token under 16 characters as the documented one: loopback only', async () => {
    const opened = await way.open({ apiKeys: [OWN_KEY], adminToken: 'short-token' });
    try {
      const res = await ask(opened.server, { target: '/__sandbox/mode', headers: key('short-token') });
      expect(res.status).toBe(403);
      expect(res.body).toContain('shorter than 16 characters');
      expect((await ask(opened.server, { target: '/__sandbox/mode', headers: key('short-token') }, '127.0.0.1')).status).toBe(200);
    } finally {
      await opened.close();
    }
  });
});

describe("the middleware leaves the team's own routes alone", () => {
  it('a remote peer reaches a route of the app, the sandbox refuses it', async () => {
    const opened = await (ways[1] as NetworkWay).open({});
    try {
      expect((await requestFromPeer(opened.server, { target: '/own' })).body).toBe('own route');
      expect((await requestFromPeer(opened.server, { target: '/api/v1/pets', headers: key('sandbox-key') })).status).toBe(403);
    } finally {
      await opened.close();
    }
  });
});

describe("the library's fetch handler", () => {
  let sandbox: PetstoreSandbox;
  beforeAll(async () => void (sandbox = await createSandbox()));
  afterAll(() => sandbox.close());
  const pets = () => new Request('http://localhost/v1/pets?limit=1', { headers: key('sandbox-key') });

  it("judges the peer of each common server's connection info", async () => {
    const remote = [
      { remoteAddress: REMOTE_PEER },
      { remoteAddr: { hostname: REMOTE_PEER } },
      { incoming: { socket: { remoteAddress: REMOTE_PEER } } },
      { requestIP: () => ({ address: REMOTE_PEER }) },
    ];
    for (const info of remote) expect((await sandbox.handler(pets(), info)).status, JSON.stringify(info)).toBe(403);
    expect((await sandbox.handler(pets(), { remoteAddress: '127.0.0.1' })).status).toBe(200);
  });

  it('judges the Host of a request from a peer, and leaves one made in process alone', async () => {
    const rebound = new Request('http://attacker.example/v1/pets?limit=1', { headers: key('sandbox-key') });
    expect((await sandbox.handler(rebound, { remoteAddress: '127.0.0.1' })).status).toBe(403);
    expect((await sandbox.handler(rebound)).status).toBe(200);
    expect((await sandbox.fetch('http://attacker.example/v1/pets?limit=1', { headers: key('sandbox-key') })).status).toBe(200);
  });
});
