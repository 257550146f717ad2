import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientOf } from '../support/control-client.js';
import { startTestSandbox, type TestSandbox } from '../support/harness.js';

const preflight = (sb: TestSandbox, path: string, origin: string, method = 'POST') =>
  fetch(`${sb.baseUrl}${path}`, {
    method: 'OPTIONS',
    headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': 'authorization, content-type' },
  });

const list = (header: string | null) => (header ?? '').split(',').map((s) => s.trim().toLowerCase());

describe('CORS with the default (any origin)', () => {
  let sb: TestSandbox;
  beforeAll(async () => {
    sb = await startTestSandbox();
  });
  afterAll(() => sb.stop());

  it.each([
    ['/pets', 'POST'],
    ['/pets', 'GET'],
    ['/pets/1', 'GET'],
    ['/store/orders', 'GET'],
  ])('preflight OPTIONS /v1%s for %s answers without a key and allows Authorization', async (path, method) => {
    const res = await preflight(sb, path, 'https://app.example', method);
    expect(res.status).toBeGreaterThanOrEqual(200);
    expect(res.status).toBeLessThan(300);
    expect(res.headers.get('www-authenticate')).toBeNull();
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(list(res.headers.get('access-control-allow-headers'))).toEqual(expect.arrayContaining(['authorization', 'content-type']));
    expect(list(res.headers.get('access-control-allow-methods'))).toContain(method.toLowerCase());
  });

  it('actual responses expose the headers a browser client needs, on success and on 401', async () => {
    const ok = await sb.op('getPet', '/pets/1', { headers: { origin: 'https://app.example' } });
    const refused = await sb.op('getPet', '/pets/1', { key: null, headers: { origin: 'https://app.example' } });
    for (const res of [ok, refused]) {
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(list(res.headers.get('access-control-expose-headers'))).toEqual(expect.arrayContaining(['deprecation', 'sunset', 'link', 'www-authenticate']));
    }
    expect([ok.status, refused.status]).toEqual([200, 401]);
  });
});

describe('CORS restricted with --cors-origins', () => {
  let sb: TestSandbox;
  beforeAll(async () => {
    sb = await startTestSandbox(['--cors-origins', 'https://a.example,https://c.example']);
  });
  afterAll(() => sb.stop());

  it.each(['https://a.example', 'https://c.example'])('a listed origin (%s) is allowed by name', async (origin) => {
    const res = await preflight(sb, '/pets', origin);
    expect(res.headers.get('access-control-allow-origin')).toBe(origin);
    expect(list(res.headers.get('access-control-allow-headers'))).toContain('authorization');
    expect(list(res.headers.get('vary'))).toContain('origin');
    const actual = await sb.op('listPets', '/pets?limit=1', { headers: { origin } });
    expect(actual.headers.get('access-control-allow-origin')).toBe(origin);
  });

  it.each(['https://b.example', 'http://a.example', 'https://a.example.evil', 'null'])(
    'another origin (%s) gets no Access-Control-Allow-Origin',
    async (origin) => {
      const res = await preflight(sb, '/pets', origin);
      expect(res.headers.get('access-control-allow-origin')).toBeNull();
      const actual = await sb.op('listPets', '/pets?limit=1', { headers: { origin } });
      expect(actual.headers.get('access-control-allow-origin')).toBeNull();
    },
  );
});

/** Every Access-Control-* header of a response. */
const accessControl = (res: { headers: Headers }) => [...res.headers.keys()].filter((name) => name.startsWith('access-control-'));
// A browser's preflight carries no credential.
const controlPreflight = (sb: TestSandbox, path: string, origin: string) =>
  clientOf(sb).send('OPTIONS', path, {
    token: null,
    headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type, x-sandbox-key' },
  });
const controlGet = (sb: TestSandbox, path: string, origin: string) => clientOf(sb).send('GET', path, { headers: { origin } });

describe('CORS on the control plane: none by default', () => {
  let sb: TestSandbox;
  beforeAll(async () => {
    sb = await startTestSandbox();
  });
  afterAll(() => sb.stop());

  it.each(['/health', '/reset', '/mode'])('a preflight to /__sandbox%s gets no Access-Control-* header', async (path) => {
    const res = await controlPreflight(sb, path, 'https://evil.example');
    expect(accessControl(res)).toEqual([]);
  });

  it.each(['/health', '/mode', '/export'])('GET /__sandbox%s from a page gets no Access-Control-* header, while /v1 keeps its own', async (path) => {
    const res = await controlGet(sb, path, 'https://evil.example');
    expect(res.status).toBe(200);
    expect(accessControl(res)).toEqual([]);
    const v1 = await preflight(sb, '/pets', 'https://evil.example');
    expect(v1.headers.get('access-control-allow-origin')).toBe('*');
  });
});

describe('CORS on the control plane with --control-cors-origins', () => {
  let sb: TestSandbox;
  beforeAll(async () => {
    sb = await startTestSandbox(['--control-cors-origins', 'https://qa.example,http://localhost:3000']);
  });
  afterAll(() => sb.stop());

  it.each(['https://qa.example', 'http://localhost:3000'])('a listed origin (%s) may send the admin token and the workspace keys', async (origin) => {
    const res = await controlPreflight(sb, '/reset', origin);
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe(origin);
    expect(list(res.headers.get('access-control-allow-headers'))).toEqual(
      expect.arrayContaining(['authorization', 'content-type', 'x-sandbox-key', 'x-sandbox-target-key']),
    );
    expect(list(res.headers.get('access-control-allow-methods'))).toContain('post');
    const actual = await controlGet(sb, '/mode', origin);
    expect(actual.status).toBe(200);
    expect(actual.headers.get('access-control-allow-origin')).toBe(origin);
    expect(list(actual.headers.get('vary'))).toContain('origin');
  });

  it.each(['https://evil.example', 'https://qa.example.evil', 'http://qa.example', 'null'])(
    'another origin (%s) gets no Access-Control-* header',
    async (origin) => {
      expect(accessControl(await controlPreflight(sb, '/reset', origin))).toEqual([]);
      expect(accessControl(await controlGet(sb, '/mode', origin))).toEqual([]);
    },
  );

  it('/v1 keeps --cors-origins (any origin)', async () => {
    const res = await preflight(sb, '/pets', 'https://evil.example');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
  });
});
