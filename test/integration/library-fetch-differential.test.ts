/**
 * The library's `fetch` must answer as the server does: the fast path's
 * differential corpus (test/support/fast-path-corpus.ts) goes to a server on
 * the run's store and to two library sandboxes in process on the same kind
 * of store (one asked through `sandbox.fetch` with a RequestInit, the other
 * through the fetch handler with a Request), in the same order, and every
 * answer must be the same: status, headers (as a set: a Response keeps no
 * order) and body, byte for byte. A fetch client sends a
 * URL normalized (dot segments, case of the scheme and host), so both get
 * the target as fetch would send it.
 */
import fc from 'fast-check';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, type PetstoreSandbox } from '../../src/index.js';
import { libraryStore, startTestSandbox, type TestSandbox } from '../support/harness.js';
import { AUTH, auth, create, extra, method, path, query } from '../support/fast-path-corpus.js';

interface Answer {
  status: number;
  headers: string[];
  body: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
/** Headers of the connection, not of the answer: the server's socket adds them, an in-process Response has none. */
const CONNECTION = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);

const answerOf = (status: number, pairs: [string, string][], body: string): Answer => ({
  status,
  headers: pairs
    .filter(([name]) => !CONNECTION.has(name))
    .map(([name, value]) => `${name}: ${name === 'x-request-id' && UUID.test(value) ? '<made>' : value}`)
    .sort(),
  body,
});

/** One request to the server with its headers and body bytes as given. */
function overHttp(origin: string, method: string, target: string, headers: Record<string, string>, body?: Buffer): Promise<Answer> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const req = request({ hostname, port, method, path: target, headers, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => {
        const pairs: [string, string][] = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2) pairs.push([(res.rawHeaders[i] as string).toLowerCase(), res.rawHeaders[i + 1] as string]);
        resolve(answerOf(res.statusCode ?? 0, pairs, text));
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** One request in process: through `fetch` with a RequestInit (no Request made), or through the fetch handler with a Request. */
async function inProcess(
  sandbox: PetstoreSandbox,
  way: 'init' | 'Request',
  method: string,
  target: string,
  headers: Record<string, string>,
  body?: Buffer,
): Promise<Answer> {
  const init = { method, headers, ...(body ? { body: new Uint8Array(body) } : {}) };
  const response = way === 'init' ? await sandbox.fetch(target, init) : await sandbox.handler(new Request(new URL(target, 'http://sandbox.test'), init));
  const pairs: [string, string][] = [];
  response.headers.forEach((value, name) => pairs.push([name, value]));
  return answerOf(response.status, pairs, await response.text());
}

describe('the library’s fetch answers as the server does', { timeout: 60_000 }, () => {
  let server: TestSandbox;
  let libraries: { init: PetstoreSandbox; Request: PetstoreSandbox };
  beforeAll(async () => {
    const library = () => libraryStore().then((store) => createSandbox({ count: 30, store }));
    const [started, init, viaRequest] = await Promise.all([startTestSandbox(['--count', '30']), library(), library()]);
    [server, libraries] = [started, { init, Request: viaRequest }];
  });
  afterAll(() => Promise.all([server.stop(), libraries.init.close(), libraries.Request.close()]));

  /** Sends the same request to both, as fetch would send it; they must agree. */
  async function same(method: string, target: string, headers: Record<string, string>, body?: Buffer): Promise<Answer> {
    const url = new URL(target, 'http://sandbox.test');
    const sent = url.pathname + url.search;
    const a = await overHttp(server.origin, method, sent, headers, body);
    for (const way of ['init', 'Request'] as const) {
      const b = await inProcess(libraries[way], way, method, sent, headers, body);
      expect({ way, sent, request: headers, ...b }).toEqual({ way, sent, request: headers, ...a });
    }
    return a;
  }

  it('for generated reads: paths, queries, keys and headers of every kind', async () => {
    await fc.assert(
      fc.asyncProperty(method, path, query, auth, extra, (m, p, q, a, e) => same(m, `${p}${q}`, { ...a, ...e }).then(() => undefined)),
      { numRuns: 300 },
    );
  });

  it('for generated creates: bodies, media types, encodings and keys of every kind', async () => {
    await fc.assert(
      fc.asyncProperty(create, auth, extra, ({ headers, body }, a, e) => same('POST', '/v1/pets', { ...a, ...e, ...headers }, body).then(() => undefined)),
      { numRuns: 200 },
    );
    expect((await same('GET', '/v1/pets?limit=100', AUTH)).status).toBe(200);
  });

  it('for bodies over the limit and not decodable: the same refusals, journaled alike', async () => {
    const big = Buffer.from(JSON.stringify({ name: 'x'.repeat(120_000), categoryId: 1 }));
    const json = { ...AUTH, 'content-type': 'application/json', origin: 'http://example.test' };
    expect((await same('POST', '/v1/pets', json, big)).status).toBe(413);
    expect((await same('POST', '/v1/pets', { ...json, authorization: 'Bearer wrong' }, big)).status).toBe(401);
    expect((await same('POST', '/v1/pets', { ...json, 'content-encoding': 'gzip' }, Buffer.from('not gzip'))).status).toBe(400);
    const admin = { authorization: 'Bearer sandbox-admin' };
    // The last two entries of the key's journal (the 401 goes to the journal of requests without a valid key).
    const journaled = async (answer: Promise<{ body: string }>) =>
      (JSON.parse((await answer).body) as { entries: { status: number; responseBody?: { code?: string } }[] }).entries
        .slice(-2)
        .map((e) => [e.status, e.responseBody?.code]);
    const onServer = await journaled(overHttp(server.origin, 'GET', '/__sandbox/journal', admin));
    expect(onServer).toEqual([
      [413, 'payload_too_large'],
      [400, 'invalid_request'],
    ]);
    for (const library of Object.values(libraries)) expect(await journaled(inProcess(library, 'init', 'GET', '/__sandbox/journal', admin))).toEqual(onServer);
  });

  it('for the control plane and the probes', async () => {
    const admin = { authorization: 'Bearer sandbox-admin' };
    // Not /__sandbox/health (its uptime) nor a workspace's (its id, keyed with each sandbox's own secret).
    for (const target of ['/__sandbox/mode', '/__sandbox/operations', '/__sandbox/fixtures', '/__sandbox/nothing', '/__SANDBOX/mode', '/livez', '/readyz'])
      await same('GET', target, target.startsWith('/__sandbox') ? admin : {});
    await same('GET', '/__sandbox/mode', {});
    await same('GET', '/__sandbox/mode', AUTH);
  });
});
