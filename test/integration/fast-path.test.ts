/**
 * The fast path answers plain GETs ahead of Express. It must be invisible:
 * the same request gets byte-for-byte the same answer (status, headers in
 * order, body) and the same journal entry with it as without it.
 */
import fc from 'fast-check';
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHandlers } from '../../src/app.js';
import { createStatefulMode } from '../../src/modes/stateful/index.js';
import { loadSpec } from '../../src/openapi/spec.js';
import { createValidators } from '../../src/openapi/validate.js';
import { Workspaces } from '../../src/store/workspaces.js';
import { controlOf, type Control } from '../support/control-client.js';
import { KEY, startTestSandbox, tempDir, testConfig, type TestSandbox } from '../support/harness.js';

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
    const { fast } = createHandlers({ config, spec, validators: createValidators(spec), runtime: { mode: 'stateful' }, modes: { stateful: createStatefulMode(workspaces) } });
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
  });

  it.each([
    ['HEAD', '/v1/pets'],
    ['POST', '/v1/pets'],
    ['OPTIONS', '/v1/pets'],
    ['GET', '/v1/pets/'],
    ['GET', '/v1/pets//1'],
    ['GET', '/v1/pets/1/'],
    ['GET', '/V1/pets'],
    ['GET', '/v1/Pets'],
    ['GET', '/v1/pets#x'],
    ['GET', '/v1/store/inventory'],
    ['GET', '/__sandbox/health'],
    ['GET', '/v1/pets/1/tags'],
  ])('leaves %s %s to Express', async (method, path) => {
    expect((await send(origin, method, path, auth)).status).toBe(299);
  });

  it('leaves a GET with a body to Express, chunked or not', async () => {
    expect((await send(origin, 'GET', '/v1/pets', { ...auth, 'transfer-encoding': 'chunked' }, '{}')).status).toBe(299);
    expect((await send(origin, 'GET', '/v1/pets', { ...auth, 'content-length': '2' }, '{}')).status).toBe(299);
    expect((await send(origin, 'GET', '/v1/pets', { ...auth, 'content-length': '0' })).status).toBe(200);
  });
});

describe('the same answers with and without the fast path', () => {
  let fastSb: TestSandbox;
  let slowSb: TestSandbox;
  let ctl: [Control, Control];
  beforeAll(async () => {
    // One workspace secret for both, so that workspace ids in control answers are the same too.
    const dirs = [tempDir(), tempDir()];
    const secret = `${randomBytes(32).toString('hex')}\n`;
    for (const dir of dirs) writeFileSync(join(dir, 'db.json.secret'), secret);
    [fastSb, slowSb] = await Promise.all([startTestSandbox(['--count', '30'], dirs[0]), startTestSandbox(['--count', '30'], dirs[1], { fastPath: false })]);
    ctl = [controlOf(fastSb), controlOf(slowSb)];
  });
  afterAll(() => Promise.all([fastSb.stop(), slowSb.stop()]));

  /** Sends the same request to both sandboxes and expects identical answers. */
  async function same(method: string, path: string, headers: Record<string, string>): Promise<Raw> {
    const [a, b] = await Promise.all([send(fastSb.origin, method, path, headers), send(slowSb.origin, method, path, headers)]);
    expect({ path, sent: headers, ...a }).toEqual({ path, sent: headers, ...b });
    return a;
  }
  const both = (method: string, path: string, init: Parameters<Control>[2]) => Promise.all(ctl.map((c) => c(method, path, init)));

  const segment = fc.oneof(
    fc.integer({ min: -5, max: 40 }).map(String),
    fc.constantFrom('0', '01', '1e1', '1.0', '%31', '%2F', '%2e%2e', '..', '.', 'abc', '9007199254740993', '99999999999999999999', '%C3%A9', '%00', '%E0%A4%A', '1;x', "'1'", '%20', '-0'),
  );
  const path = fc.oneof(
    { weight: 4, arbitrary: fc.constant('/v1/pets') },
    { weight: 4, arbitrary: segment.map((s) => `/v1/pets/${s}`) },
    { weight: 1, arbitrary: fc.constantFrom('/v1/pets/', '/v1/pets/1/', '/v1/pets//1', '/V1/pets', '/v1/PETS/1', '/v1//pets', '/v1/pets/1/x', '/v1', '/v1/') },
  );
  const pair = fc.tuple(
    fc.constantFrom('limit', 'status', 'x', 'limit[]', 'Limit', 'status[0]'),
    fc.constantFrom('1', '5', '20', '100', '101', '0', '-1', 'abc', '', 'sold', 'available', 'pending', 'SOLD', '%20', '1.5', '%ZZ', '%31', '1e2', '+5'),
  );
  const query = fc.array(pair, { maxLength: 4 }).map((pairs) => (pairs.length === 0 ? '' : `?${pairs.map(([k, v]) => `${k}=${v}`).join('&')}`));
  const auth = fc.constantFrom<Record<string, string>>(
    { authorization: `Bearer ${KEY}` },
    { authorization: `Bearer ${KEY}` },
    { authorization: `bearer  ${KEY} ` },
    { authorization: 'Bearer wrong-key' },
    { authorization: `Basic ${KEY}` },
    { authorization: 'Bearer' },
    {},
  );
  const extra = fc.constantFrom<Record<string, string>>({}, { origin: 'http://example.test' }, { accept: 'text/html' }, { 'x-sandbox-key': 'other' });
  const method = fc.constantFrom('GET', 'GET', 'GET', 'GET', 'HEAD');

  it('for generated requests: paths, queries, keys and headers of every kind', async () => {
    await fc.assert(
      fc.asyncProperty(method, path, query, auth, extra, async (m, p, q, a, e) => {
        await same(m, `${p}${q}`, { ...a, ...e });
      }),
      { numRuns: 400 },
    );
  });

  it('with faults injected: forced statuses, counted the same', async () => {
    for (const init of [{ json: { operationId: 'listPets', status: 503, count: 2 } }, { json: { operationId: 'getPet', status: 404, count: 1 } }]) {
      expect((await both('POST', '/faults', init)).map((r) => r.status)).toEqual([201, 201]);
    }
    const auth = { authorization: `Bearer ${KEY}` };
    const statuses: number[] = [];
    for (const p of ['/v1/pets', '/v1/pets/1', '/v1/pets?limit=2', '/v1/pets/1', '/v1/pets']) statuses.push((await same('GET', p, auth)).status);
    expect(statuses).toEqual([503, 404, 503, 200, 200]);
    const [a, b] = await both('GET', '/faults', {});
    expect(a?.body).toEqual(b?.body);
    await both('DELETE', '/faults', {});
  });

  it('with a Prefer header, answered by the documented example or status', async () => {
    const auth = { authorization: `Bearer ${KEY}` };
    for (const prefer of ['code=404', 'code=418', 'example=sold', 'code=200, dynamic=true', 'code=abc']) {
      await same('GET', '/v1/pets/3', { ...auth, prefer });
      await same('GET', '/v1/pets', { ...auth, prefer });
    }
  });

  it('in example mode', async () => {
    expect((await both('PUT', '/mode', { json: { mode: 'example' } })).map((r) => r.status)).toEqual([200, 200]);
    const auth = { authorization: `Bearer ${KEY}` };
    for (const p of ['/v1/pets', '/v1/pets?limit=3', '/v1/pets/2', '/v1/pets/abc', '/v1/pets?limit=0']) await same('GET', p, auth);
    await same('GET', '/v1/pets', {});
    await both('PUT', '/mode', { json: { mode: 'stateful' } });
  });

  it('and the same journal of all of it', async () => {
    const [a, b] = await both('GET', '/journal', {});
    const strip = (body: { entries: Record<string, unknown>[] }) => body.entries.map(({ time: _time, durationMs: _ms, ...rest }) => rest);
    expect(a?.body.entries.length).toBeGreaterThan(100);
    expect(strip(a?.body)).toEqual(strip(b?.body));
  });
});
