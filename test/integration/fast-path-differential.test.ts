/**
 * The fast path must be invisible: two sandboxes, one with it and one that
 * sends everything through Express, get the same requests in the same order
 * and must give byte-for-byte the same answers (status, headers in order,
 * body) and the same journals: reads and creates with generated bodies, in
 * every mode, with any origin allowed and with only some.
 */
import fc from 'fast-check';
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { controlOf, type Control } from '../support/control-client.js';
import { startTestSandbox, tempDir, type TestSandbox } from '../support/harness.js';
import { AUTH, auth, create, extra, method, path, query } from '../support/fast-path-corpus.js';

interface Raw {
  status: number;
  headers: string[];
  body: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** One request with its path, headers and body bytes exactly as given (fetch would normalize them). */
function send(origin: string, method: string, path: string, headers: Record<string, string>, body?: Buffer): Promise<Raw> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const req = request({ hostname, port, method, path, headers, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => {
        const pairs: string[] = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2) {
          const name = res.rawHeaders[i]?.toLowerCase();
          // A request id made for the request differs on each; where it stands in the order does not.
          const value = name === 'x-request-id' && UUID.test(res.rawHeaders[i + 1] ?? '') ? '<made>' : res.rawHeaders[i + 1];
          if (name !== 'date') pairs.push(`${res.rawHeaders[i]}: ${value}`);
        }
        resolve({ status: res.statusCode ?? 0, headers: pairs, body: text });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

interface Pair {
  same(method: string, path: string, headers: Record<string, string>, body?: Buffer): Promise<Raw>;
  both: (method: string, path: string, init?: Parameters<Control>[2]) => Promise<Awaited<ReturnType<Control>>[]>;
  stop(): Promise<void>;
}

/** Two sandboxes with the same arguments and workspace secret, the second without the fast path. */
async function startPair(args: string[]): Promise<Pair> {
  const dirs = [tempDir(), tempDir()];
  const secret = `${randomBytes(32).toString('hex')}\n`;
  for (const dir of dirs) writeFileSync(join(dir, 'db.json.secret'), secret);
  const sandboxes: TestSandbox[] = await Promise.all([startTestSandbox(args, dirs[0]), startTestSandbox(args, dirs[1], { fastPath: false })]);
  const [fastSb, slowSb] = sandboxes as [TestSandbox, TestSandbox];
  const ctl = sandboxes.map(controlOf);
  return {
    async same(method, path, headers, body) {
      const [a, b] = await Promise.all([send(fastSb.origin, method, path, headers, body), send(slowSb.origin, method, path, headers, body)]);
      expect({ path, sent: headers, ...a }).toEqual({ path, sent: headers, ...b });
      return a;
    },
    both: (method, path, init = {}) => Promise.all(ctl.map((c) => c(method, path, init))),
    stop: async () => void (await Promise.all(sandboxes.map((s) => s.stop()))),
  };
}

describe.each([
  ['with any origin allowed', ['--count', '30']],
  ['with only some origins allowed', ['--count', '30', '--cors-origins', 'http://allowed.test,http://other.test']],
])('the same answers with and without the fast path, %s', { timeout: 60_000 }, (_label, args) => {
  let sb: Pair;
  beforeAll(async () => void (sb = await startPair(args)));
  afterAll(() => sb.stop());

  it('for generated reads: paths, queries, keys and headers of every kind', async () => {
    await fc.assert(
      fc.asyncProperty(method, path, query, auth, extra, (m, p, q, a, e) => sb.same(m, `${p}${q}`, { ...a, ...e }).then(() => undefined)),
      { numRuns: 300 },
    );
  });

  it('for generated creates: bodies, media types, encodings and keys of every kind', async () => {
    await fc.assert(
      fc.asyncProperty(create, auth, extra, ({ headers, body }, a, e) => sb.same('POST', '/v1/pets', { ...a, ...e, ...headers }, body).then(() => undefined)),
      { numRuns: 200 },
    );
    // Creates that succeeded are listed the same by both.
    await sb.same('GET', '/v1/pets?limit=100', AUTH);
  });

  it('with faults injected: forced statuses, counted the same', async () => {
    for (const json of [
      { operationId: 'listPets', status: 503, count: 2 },
      { operationId: 'getPet', status: 404, count: 1 },
      { operationId: 'createPet', status: 500, count: 1 },
    ]) {
      expect((await sb.both('POST', '/faults', { json })).map((r) => r.status)).toEqual([201, 201]);
    }
    const statuses: number[] = [];
    for (const p of ['/v1/pets', '/v1/pets/1', '/v1/pets?limit=2', '/v1/pets/1', '/v1/pets']) statuses.push((await sb.same('GET', p, AUTH)).status);
    statuses.push((await sb.same('POST', '/v1/pets', { ...AUTH, 'content-type': 'application/json' }, Buffer.from('{"name":"F","categoryId":1}'))).status);
    expect(statuses).toEqual([503, 404, 503, 200, 200, 500]);
    const [a, b] = await sb.both('GET', '/faults');
    expect(a?.body).toEqual(b?.body);
    await sb.both('DELETE', '/faults');
  });

  it('with a Prefer header, answered by the documented example or status', async () => {
    for (const prefer of ['code=404', 'code=418', 'example=sold', 'code=200, dynamic=true', 'code=abc', 'code=400']) {
      await sb.same('GET', '/v1/pets/3', { ...AUTH, prefer });
      await sb.same('GET', '/v1/pets', { ...AUTH, prefer });
      await sb.same('POST', '/v1/pets', { ...AUTH, prefer, 'content-type': 'application/json' }, Buffer.from('{"name":"P","categoryId":2}'));
    }
  });

  it.each(['example', 'dynamic'])('in %s mode', async (mode) => {
    expect((await sb.both('PUT', '/mode', { json: { mode } })).map((r) => r.status)).toEqual([200, 200]);
    for (const p of ['/v1/pets', '/v1/pets?limit=3', '/v1/pets/2', '/v1/pets/abc', '/v1/pets?limit=0', '/v1/pets/%E0%A4%A']) await sb.same('GET', p, AUTH);
    await sb.same('GET', '/v1/pets', {});
    for (const body of ['{"name":"M","categoryId":3}', '{"name":"M"}', '{'])
      await sb.same('POST', '/v1/pets', { ...AUTH, 'content-type': 'application/json' }, Buffer.from(body));
    await sb.both('PUT', '/mode', { json: { mode: 'stateful' } });
  });

  it('and the same journal of all of it', async () => {
    const [a, b] = await sb.both('GET', '/journal');
    const strip = (body: { entries: Record<string, unknown>[] }) => body.entries.map(({ time: _time, durationMs: _ms, ...rest }) => rest);
    expect(a?.body.entries.length).toBeGreaterThan(100);
    expect(strip(a?.body)).toEqual(strip(b?.body));
    const [ua, ub] = await sb.both('GET', '/journal/unauthenticated');
    expect(strip(ua?.body)).toEqual(strip(ub?.body));
  });
});
