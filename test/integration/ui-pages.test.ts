/**
 * The browser pages over real HTTP: `GET /` points at them, they and their
 * assets need no credential and carry a Content-Security-Policy without
 * inline scripts or other origins, and the specs the docs page reads name
 * this sandbox as their only server. (What they do in a browser is
 * test/browser's.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSandbox, type TestSandbox } from '../support/harness.js';

let sb: TestSandbox;
beforeAll(async () => {
  // The pages are built files (dist/ui): build them as `npm run build` does.
  await import('../../web/build.js');
  sb = await startTestSandbox();
}, 60_000);
afterAll(() => sb.stop());

const get = (path: string, headers: Record<string, string> = {}) => fetch(`${sb.origin}${path}`, { headers, redirect: 'manual' });

describe('GET /', () => {
  it('sends a browser to the docs', async () => {
    const res = await get('/', { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/docs');
  });

  it('gives a program the links as JSON', async () => {
    const res = await get('/');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(await res.json()).toEqual({ api: '/v1', docs: '/docs', controlPlane: '/__sandbox', controlDocs: '/docs/control', console: '/__sandbox/ui' });
  });
});

describe('the pages and their assets', () => {
  it.each([
    ['/docs', 'text/html'],
    ['/docs/control', 'text/html'],
    ['/docs/api-key.json', 'application/json'],
    ['/docs/assets/docs.js', 'javascript'],
    ['/docs/assets/swagger-ui-bundle.js', 'javascript'],
    ['/docs/assets/swagger-ui.css', 'text/css'],
    ['/__sandbox/ui', 'text/html'],
    ['/__sandbox/ui/assets/console.js', 'javascript'],
    ['/__sandbox/ui/assets/console.css', 'text/css'],
  ])('%s needs no credential and forbids inline scripts and other origins', async (path, type) => {
    const res = await get(path);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain(type);
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval|https?:|\*/);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('loads no script from another origin and runs none inline', async () => {
    for (const path of ['/docs', '/__sandbox/ui']) {
      const html = await (await get(path)).text();
      const scripts = [...html.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
      expect(scripts.length).toBeGreaterThan(0);
      for (const [, attributes, body] of scripts) {
        expect(attributes).toMatch(/src="\/[^/]/);
        expect(body).toBe('');
      }
      expect(html).not.toMatch(/https?:\/\//);
    }
  });

  it("serves the console's page without a token, while its data calls need one", async () => {
    expect((await get('/__sandbox/ui')).status).toBe(200);
    expect((await get('/__sandbox/mode')).status).toBe(401);
    expect((await get('/__sandbox/journal/stream')).status).toBe(401);
  });

  it('answers an unknown asset 404 with the Error body', async () => {
    const res = await get('/docs/assets/nope.js');
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ code: 'not_found', status: 404 });
  });
});

describe('the specs the docs page reads', () => {
  it("name this sandbox, relative to the page's origin, as the interface's only server", async () => {
    const spec = (await (await get('/docs/openapi.json')).json()) as { servers: unknown; paths: Record<string, unknown> };
    expect(spec.servers).toEqual([{ url: '/v1', description: 'This sandbox' }]);
    expect(Object.keys(spec.paths)).toEqual(['/pets', '/pets/{petId}']);
  });

  it('name the Sunset date of a deprecated operation in its summary, from its Sunset header', async () => {
    const spec = (await (await get('/docs/openapi.json')).json()) as { paths: Record<string, Record<string, { summary: string }>> };
    expect(spec.paths['/pets/{petId}']?.get?.summary).toBe('Get an animal (deprecated; Sunset: Thu, 05 Dec 2030 00:00:00 GMT)');
    expect(spec.paths['/pets']?.get?.summary).toBe('List animals');
  });

  it("name the control plane's path as its server, and point its references at the interface's JSON", async () => {
    const text = await (await get('/docs/sandbox-control.json')).text();
    expect((JSON.parse(text) as { servers: unknown }).servers).toEqual([{ url: '/__sandbox', description: "This sandbox's control plane" }]);
    expect(text).toContain('"./openapi.json#/components/schemas/Pet"');
    expect(text).not.toContain('openapi.yaml#');
  });
});
