/**
 * The fast path hands every /v1 request with a plain URL to the engine
 * without Express's routing (the engine routes /v1 itself: HEAD, a
 * trailing slash, a 405, the store area's 501, an unknown path's 404). It
 * must be invisible: the same request gets
 * byte-for-byte the same answer (status, headers in order, body) and the
 * same journal entry with it as without it, for reads and creates, in every
 * mode, with any origin allowed or only some.
 */
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHandlers } from '../../src/server/app.js';
import { createStatefulMode } from '../../src/modes/stateful/index.js';
import { loadSpec } from '../../src/openapi/load-spec.js';
import { createValidators } from '../../src/openapi/validate.js';
import { Workspaces } from '../../src/store/file/workspaces.js';
import { KEY, testConfig } from '../support/harness.js';

interface Raw {
  status: number;
  headers: string[];
  body: string;
}

/** One request with its path and headers exactly as given (fetch would normalize the path). */
function send(origin: string, method: string, path: string, headers: Record<string, string>, body?: string): Promise<Raw> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const req = request({ hostname, port, method, path, headers, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => {
        const pairs: string[] = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2) {
          if (res.rawHeaders[i]?.toLowerCase() !== 'date') pairs.push(`${res.rawHeaders[i]}: ${res.rawHeaders[i + 1]}`);
        }
        resolve({ status: res.statusCode ?? 0, headers: pairs, body });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('which requests the fast path takes', () => {
  let origin: string;
  let close: () => Promise<void>;
  beforeAll(async () => {
    const spec = loadSpec();
    const config = testConfig();
    const workspaces = await Workspaces.open({ dataFile: config.dataFile, defaultKey: KEY, store: { seed: { seed: 1, count: 5 } } });
    const { fast } = createHandlers({
      config,
      spec,
      validators: createValidators(spec),
      runtime: { mode: 'stateful' },
      modes: { stateful: createStatefulMode(workspaces) },
    });
    // Whatever the fast path leaves gets a marker status, so the test sees the decision itself.
    const server = createServer((req, res) => {
      if (fast(req, res)) return;
      res.statusCode = 299;
      res.end('left to Express');
    }).listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    close = async () => {
      await new Promise((resolve) => server.close(resolve));
      await workspaces.close();
    };
  });
  afterAll(() => close());

  const auth = { authorization: `Bearer ${KEY}` };
  it.each([
    ['GET', '/v1/pets', 200],
    ['GET', '/v1/pets?limit=3&status=sold', 200],
    ['GET', '/v1/pets?limit=500', 400],
    ['GET', '/v1/pets/1', 200],
    ['GET', '/v1/pets/%31', 200],
    ['GET', '/v1/pets/999', 404],
    ['GET', '/v1/pets/abc', 404],
    ['GET', '/v1/pets/%E0%A4%A', 404],
  ])('takes %s %s (answers %i)', async (method, path, status) => {
    expect((await send(origin, method, path, auth)).status).toBe(status);
  });

  it('takes a request without a key and answers 401', async () => {
    expect((await send(origin, 'GET', '/v1/pets', {})).status).toBe(401);
    expect((await send(origin, 'POST', '/v1/pets', { 'content-type': 'application/json' }, '{}')).status).toBe(401);
  });

  it('takes POST /v1/pets and reads its body itself: a pet (201), another media type (415), invalid JSON (400)', async () => {
    const json = { ...auth, 'content-type': 'application/json' };
    expect((await send(origin, 'POST', '/v1/pets', json, '{"name":"Fast","categoryId":1}')).status).toBe(201);
    expect((await send(origin, 'POST', '/v1/pets', { ...auth, 'content-type': 'text/plain' }, '{"name":"Fast","categoryId":1}')).status).toBe(415);
    expect((await send(origin, 'POST', '/v1/pets', json, '{"name":')).status).toBe(400);
  });

  it.each([
    ['HEAD', '/v1/pets', 200],
    ['GET', '/v1/pets/', 200],
    ['GET', '/v1/pets/1/', 200],
    ['GET', '/V1/pets', 200],
    ['POST', '/v1/pets/1', 405],
    ['OPTIONS', '/v1/pets', 204],
    ['GET', '/v1/pets//1', 404],
    ['GET', '/v1/Pets', 404],
    ['GET', '/v1/pets/1/tags', 404],
    ['GET', '/v1', 404],
    ['GET', '/v1/store/inventory', 501],
  ])('takes %s %s too, routed by the engine as Express routes it (answers %i)', async (method, path, status) => {
    expect((await send(origin, method, path, auth)).status).toBe(status);
  });

  it.each([
    ['GET', '/v1/pets#x'],
    ['GET', '/v1x/pets'],
    ['GET', '/v1%2Fpets'],
    ['GET', '/__sandbox/health'],
    ['GET', '/'],
  ])('leaves %s %s to Express', async (method, path) => {
    expect((await send(origin, method, path, auth)).status).toBe(299);
  });

  it('takes a GET with a body, chunked or not, and leaves the body unread', async () => {
    expect((await send(origin, 'GET', '/v1/pets', { ...auth, 'transfer-encoding': 'chunked' }, '{}')).status).toBe(200);
    expect((await send(origin, 'GET', '/v1/pets', { ...auth, 'content-length': '2' }, '{}')).status).toBe(200);
    expect((await send(origin, 'GET', '/v1/pets', { ...auth, 'content-length': '0' })).status).toBe(200);
  });
});
