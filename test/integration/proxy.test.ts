/**
 * Proxy mode over real HTTP: a second sandbox as a deployment that keeps the
 * spec (answers pass through unchanged, nothing reported), the broken server
 * as one that does not (every break in `Sandbox-Violations` and the
 * journal), an upstream that is down (502), and `--upstream-key`.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JournalEntry } from '../../src/store/journal/types.js';
import type { Violation } from '../../src/kernel/operation.js';
import { startBrokenServer, type BrokenServer } from '../support/broken-server.js';
import { controlOf } from '../support/control-client.js';
import { expectError } from '../support/error-check.js';
import { startTestSandbox, type CallInit, type TestSandbox } from '../support/harness.js';

const UP_KEY = 'upstream-key';
const HEADERS_THAT_MATTER = ['content-type', 'content-length', 'location', 'deprecation', 'sunset', 'link', 'www-authenticate'];

let upstream: TestSandbox;
let proxy: TestSandbox;
beforeAll(async () => {
  upstream = await startTestSandbox(['--api-keys', UP_KEY, '--count', '5']);
  proxy = await startTestSandbox(['--mode', 'proxy', '--upstream', upstream.baseUrl, '--api-keys', UP_KEY]);
});
afterAll(async () => {
  await proxy?.stop();
  await upstream?.stop();
});

const violationsOf = (headers: Headers): Violation[] => JSON.parse(headers.get('sandbox-violations') ?? '[]') as Violation[];
const journal = async (sb: TestSandbox, key: string): Promise<JournalEntry[]> =>
  (await controlOf(sb)('GET', '/journal', { key })).body.entries as JournalEntry[];

describe('proxy mode before a deployment that keeps the spec', () => {
  const same: [string, string, CallInit][] = [
    ['listPets', '/pets?limit=3', {}],
    ['listPets by status', '/pets?status=available', {}],
    ['getPet (deprecated: Deprecation, Sunset, Link)', '/pets/2', {}],
    ['getPet 404', '/pets/999999', {}],
    ['listPets asked with HEAD (the Content-Length of the GET)', '/pets?limit=3', { method: 'HEAD' }],
  ];
  it.each(same)('passes %s through byte for byte, with no violation', async (_name, path, init) => {
    const direct = await upstream.call(path, { ...init, key: UP_KEY });
    const proxied = await proxy.call(path, { ...init, key: UP_KEY });
    expect(proxied.status).toBe(direct.status);
    expect(proxied.text).toBe(direct.text);
    for (const name of HEADERS_THAT_MATTER) expect(proxied.headers.get(name), name).toBe(direct.headers.get(name));
    expect(proxied.headers.get('sandbox-violations')).toBeNull();
  });

  it('passes a created pet through with the headers a direct create has, and the upstream stores it', async () => {
    const pet = { name: 'Via proxy', categoryId: 2 };
    const direct = await upstream.call('/pets', { method: 'POST', key: UP_KEY, json: pet });
    const created = await proxy.call('/pets', { method: 'POST', key: UP_KEY, json: pet });
    expect(created.status).toBe(201);
    expect(created.text).toBe(direct.text.replace(`"id":${direct.body.id}`, `"id":${direct.body.id + 1}`));
    for (const name of HEADERS_THAT_MATTER)
      expect(created.headers.get(name), name).toBe(direct.headers.get(name)?.replace(String(direct.body.id), String(created.body.id)) ?? null);
    expect(created.headers.get('sandbox-violations')).toBeNull();
    expect((await upstream.call(`/pets/${created.body.id}`, { key: UP_KEY })).body).toEqual(created.body);
  });

  it('forwards a request the spec refuses and reports it, the upstream answer unchanged', async () => {
    const direct = await upstream.call('/pets?limit=0', { key: UP_KEY });
    const proxied = await proxy.call('/pets?limit=0', { key: UP_KEY });
    expect(proxied.status).toBe(400);
    expect(proxied.text).toBe(direct.text);
    expect(violationsOf(proxied.headers)).toEqual([expect.objectContaining({ at: 'request', in: 'query', name: 'limit' })]);
  });

  it('forwards a request without a key: the upstream says 401, the request is reported', async () => {
    const proxied = await proxy.call('/pets', { key: null });
    expectError(proxied, 401, 'unauthorized');
    expect(violationsOf(proxied.headers)).toEqual([expect.objectContaining({ at: 'request', in: 'header', name: 'Authorization' })]);
  });

  it('forwards a path no operation has and reports it', async () => {
    const proxied = await proxy.call('/owners', { key: UP_KEY });
    expectError(proxied, 404, 'not_found');
    expect(violationsOf(proxied.headers)).toEqual([expect.objectContaining({ at: 'request', in: 'operation' })]);
  });

  it("journals every exchange in the caller's workspace, with its violations", async () => {
    await controlOf(proxy)('DELETE', '/journal', { key: UP_KEY });
    await proxy.call('/pets/1', { key: UP_KEY });
    await proxy.call('/pets?limit=many', { key: UP_KEY });
    await proxy.call('/owners', { key: UP_KEY });
    const [valid, refused, outside] = await journal(proxy, UP_KEY);
    expect(valid).toMatchObject({ operationId: 'getPet', status: 200, specValid: true, violations: [] });
    expect(valid?.specIssues).toBeUndefined();
    expect(refused).toMatchObject({ operationId: 'listPets', status: 400, specValid: true, violations: [{ at: 'request', in: 'query', name: 'limit' }] });
    // The upstream's 404 is a valid Error, but no operation matches the request: not an exchange the interface allows.
    expect(outside).toMatchObject({
      operationId: null,
      status: 404,
      specValid: false,
      specIssues: [{ in: 'operation' }],
      violations: [{ at: 'request', in: 'operation' }],
    });
  });
});

describe('proxy mode before a deployment that breaks the spec', () => {
  let broken: BrokenServer;
  let sb: TestSandbox;
  beforeAll(async () => {
    broken = await startBrokenServer();
    sb = await startTestSandbox(['--mode', 'proxy', '--upstream', broken.baseUrl]);
  });
  afterAll(async () => {
    await sb?.stop();
    await broken?.close();
  });

  it.each([
    ['listPets 200: an id that is a string', '/pets', {}, 200, { at: 'response', in: 'body', name: '0/id' }],
    ['createPet 201: a pet without id', '/pets', { method: 'POST', json: { name: 'Rex', categoryId: 1 } }, 201, { at: 'response', in: 'body', name: 'id' }],
    ['createPet 422: an undocumented status', '/pets', { method: 'POST', json: { categoryId: 1 } }, 422, { at: 'response', in: 'status' }],
    ['getPet 200 for an impossible id', '/pets/0', {}, 200, { at: 'request', in: 'path', name: 'petId' }],
    ['listPets 401: Error status 403', '/pets', { key: 'wrong' }, 401, { at: 'response', in: 'body', name: 'status' }],
    [
      'createPet 401: an HTML page',
      '/pets',
      { method: 'POST', key: 'wrong', json: { name: 'Rex', categoryId: 1 } },
      401,
      { at: 'response', in: 'body', name: '' },
    ],
  ] as [string, string, CallInit, number, Partial<Violation>][])('reports %s, the answer passed as it came', async (_name, path, init, status, expected) => {
    const direct = await fetch(`${broken.baseUrl}${path}`, {
      method: init.method ?? 'GET',
      headers: { authorization: `Bearer ${init.key ?? 'sandbox-key'}`, ...(init.json ? { 'content-type': 'application/json' } : {}) },
      ...(init.json ? { body: JSON.stringify(init.json) } : {}),
    });
    const proxied = await sb.call(path, init);
    expect(proxied.status).toBe(status);
    expect(proxied.text).toBe(await direct.text());
    expect(proxied.headers.get('content-type')).toBe(direct.headers.get('content-type'));
    expect(violationsOf(proxied.headers)).toContainEqual(expect.objectContaining(expected));
  });

  it('journals the breaks: specValid false, the violations kept; a key the sandbox does not know in the unauthenticated journal', async () => {
    const ctl = controlOf(sb);
    await ctl('DELETE', '/journal', { key: 'sandbox-key' });
    await ctl('DELETE', '/journal/unauthenticated');
    await sb.call('/pets');
    await sb.call('/pets', { key: 'unknown-here' });
    const [entry] = await journal(sb, 'sandbox-key');
    expect(entry).toMatchObject({ operationId: 'listPets', status: 200, specValid: false, violations: [{ at: 'response', in: 'body', name: '0/id' }] });
    const [unknown] = (await ctl('GET', '/journal/unauthenticated')).body.entries as JournalEntry[];
    expect(unknown).toMatchObject({ operationId: 'listPets', status: 401, specValid: false, violations: [{ at: 'response', in: 'body', name: 'status' }] });
  });
});

describe('proxy mode without a working upstream', () => {
  it('answers 502 upstream_unavailable when nothing listens upstream, and still reports the request', async () => {
    const gone = createServer();
    await new Promise<void>((resolve) => gone.listen(0, '127.0.0.1', resolve));
    const { port } = gone.address() as AddressInfo;
    await new Promise<void>((resolve) => gone.close(() => resolve()));
    const sb = await startTestSandbox(['--mode', 'proxy', '--upstream', `http://127.0.0.1:${port}/v1`]);
    try {
      const valid = await sb.call('/pets');
      expectError(valid, 502, 'upstream_unavailable');
      expect(valid.headers.get('sandbox-violations')).toBeNull();
      const refused = await sb.call('/pets?limit=0');
      expectError(refused, 502, 'upstream_unavailable');
      expect(violationsOf(refused.headers)).toEqual([expect.objectContaining({ at: 'request', in: 'query', name: 'limit' })]);
      const entries = await journal(sb, 'sandbox-key');
      expect(entries).toMatchObject([
        { status: 502, specValid: false, violations: [] },
        { status: 502, specValid: false, violations: [{ at: 'request', name: 'limit' }] },
      ]);
    } finally {
      await sb.stop();
    }
  });

  it('answers 502 when the upstream takes longer than --upstream-timeout', { timeout: 60_000 }, async () => {
    // Accepts requests and never answers them.
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as AddressInfo;
    const sb = await startTestSandbox(['--mode', 'proxy', '--upstream', `http://127.0.0.1:${port}/v1`, '--upstream-timeout', '1']);
    try {
      const res = await sb.call('/pets');
      expectError(res, 502, 'upstream_unavailable');
      expect(res.body.message).toMatch(/no answer within 1 s/);
    } finally {
      await sb.stop();
      silent.closeAllConnections();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });
});

describe('--upstream-key', () => {
  let sb: TestSandbox;
  beforeAll(async () => (sb = await startTestSandbox(['--mode', 'proxy', '--upstream', upstream.baseUrl, '--upstream-key', UP_KEY, '--api-keys', 'team-key'])));
  afterAll(() => sb?.stop());

  it("sends its own key upstream instead of the caller's", async () => {
    const proxied = await sb.call('/pets/1', { key: 'team-key' });
    expect(proxied.status).toBe(200);
    expect(proxied.text).toBe((await upstream.call('/pets/1', { key: UP_KEY })).text);
  });

  it('refuses a caller without one of its own keys, without asking the upstream', async () => {
    await controlOf(upstream)('DELETE', '/journal/unauthenticated');
    expectError(await sb.call('/pets', { key: UP_KEY }), 401, 'unauthorized');
    expect((await controlOf(upstream)('GET', '/journal/unauthenticated')).body.entries).toEqual([]);
  });
});
