/**
 * OPTIONS outside /v1 and the control plane answers as on an unknown path:
 * the Error body and the unknown path's 404, or 204 with CORS headers for a
 * preflight /v1's CORS allows. Not Express's 200 `text/plain` list of
 * methods, which it gave to the pages and the probes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../support/error-check.js';
import { startTestSandbox, type CallResult, type TestSandbox } from '../support/harness.js';

/** Paths outside /v1 and /__sandbox: the pages, the probes, the metrics, one with a query, and nothing at all. */
const OUTSIDE = ['/', '/docs', '/docs/openapi.json', '/livez', '/readyz', '/metrics', '/readyz?x=1', '/nope', '/pets', '/V2/pets'];

async function ask(sb: TestSandbox, path: string, method: string, headers: Record<string, string> = {}): Promise<CallResult> {
  const res = await fetch(`${sb.origin}${path}`, { method, headers });
  const text = await res.text();
  let body: unknown;
  try {
    body = JSON.parse(text) as unknown;
  } catch {
    body = text;
  }
  return { status: res.status, headers: res.headers, body, text } as CallResult;
}

const preflightFrom = (origin: string) => ({ origin, 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' });

describe('OPTIONS outside /v1 and the control plane, CORS for any origin (the default)', () => {
  let sb: TestSandbox;
  beforeAll(async () => {
    sb = await startTestSandbox();
  });
  afterAll(() => sb.stop());

  it('an unknown path answers GET with the Error body and 404 not_found', async () => {
    expectError(await ask(sb, '/nope', 'GET'), 404, 'not_found');
  });

  it.each(OUTSIDE)('OPTIONS %s is that same 404 with the Error body', async (path) => {
    const res = await ask(sb, path, 'OPTIONS');
    expectError(res, 404, 'not_found');
    expect(res.body).toMatchObject({ message: expect.stringContaining('No route OPTIONS') as unknown });
    expect(res.headers.get('allow')).toBeNull();
  });

  it.each(OUTSIDE)('a CORS preflight to %s gets 204 with the CORS headers an unknown path carries', async (path) => {
    const res = await ask(sb, path, 'OPTIONS', preflightFrom('https://app.example'));
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-methods')).toContain('GET');
  });

  it('/v1 and the control plane keep their own answers', async () => {
    const v1 = await ask(sb, '/v1/pets', 'OPTIONS', preflightFrom('https://app.example'));
    expect(v1.status).toBe(204);
    expect(v1.headers.get('access-control-allow-origin')).toBe('*');
    // The control plane has no CORS by default: its OPTIONS is one more request without the admin token.
    expectError(await ask(sb, '/__sandbox/journal', 'OPTIONS', preflightFrom('https://app.example')), 401, 'unauthorized');
    expectError(await ask(sb, '/__SANDBOX/journal', 'OPTIONS'), 401, 'unauthorized');
  });
});

describe('OPTIONS outside /v1 and the control plane, with --cors-origins', () => {
  let sb: TestSandbox;
  beforeAll(async () => {
    sb = await startTestSandbox(['--cors-origins', 'https://a.example']);
  });
  afterAll(() => sb.stop());

  it('a preflight from a listed origin gets 204, allowed by name', async () => {
    const res = await ask(sb, '/livez', 'OPTIONS', preflightFrom('https://a.example'));
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('https://a.example');
  });

  it('a preflight from another origin, where CORS does not apply, is the unknown path 404 without CORS headers', async () => {
    const res = await ask(sb, '/', 'OPTIONS', preflightFrom('https://b.example'));
    expectError(res, 404, 'not_found');
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });
});
