/**
 * The specs the docs page reads when the sandbox serves specs of its own
 * (`--spec`): the list of APIs for its selector, each spec with its base
 * path as its only server, the first one at `/docs/openapi.json`; and the
 * same list of one API, the Pet Store at `/v1`, without `--spec`.
 */
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSandbox, type TestSandbox } from '../support/harness.js';
import { INVENTORY, PETSTORE_11 } from '../support/own-spec.js';

let two: TestSandbox;
let one: TestSandbox;
beforeAll(async () => {
  await import('../../web/build.js');
  [two, one] = await Promise.all([startTestSandbox(['--spec', PETSTORE_11, '--spec', INVENTORY, '--count', '1']), startTestSandbox(['--count', '1'])]);
}, 60_000);
afterAll(async () => {
  await two?.stop();
  await one?.stop();
});

const json = async (sb: TestSandbox, path: string) => {
  const res = await fetch(`${sb.origin}${path}`);
  // Read field by field in the tests.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return { status: res.status, type: res.headers.get('content-type'), csp: res.headers.get('content-security-policy'), body: (await res.json()) as any };
};

describe('the docs page with two specs', { timeout: 60_000 }, () => {
  it('lists both APIs, each with a name, its spec and its base path', async () => {
    const { status, body, csp } = await json(two, '/docs/apis.json');
    expect(status).toBe(200);
    expect(csp).toContain("default-src 'none'");
    expect(body).toEqual({
      apis: [
        { name: 'Pet Store 1.1.0 (/v1)', url: '/docs/apis/0/openapi.json', base: '/v1' },
        { name: 'Inventory 2.0.0 (/api/v2)', url: '/docs/apis/1/openapi.json', base: '/api/v2' },
      ],
    });
  });

  it('serves each spec with its base path as its only server, the first also as /docs/openapi.json', async () => {
    const inventory = (await json(two, '/docs/apis/1/openapi.json')).body;
    const { servers, ...rest } = inventory;
    expect(servers).toEqual([{ url: '/api/v2', description: 'This sandbox' }]);
    const { servers: _given, ...loaded } = parse(readFileSync(INVENTORY, 'utf8')) as Record<string, unknown>;
    expect(rest).toEqual(loaded);
    const first = (await json(two, '/docs/openapi.json')).body;
    expect(first).toEqual((await json(two, '/docs/apis/0/openapi.json')).body);
    expect(first.info.version).toBe('1.1.0');
    expect(first.servers).toEqual([{ url: '/v1', description: 'This sandbox' }]);
  });

  it('answers an index no API has with the Error body of an unknown path', async () => {
    for (const index of ['2', 'x', '00001']) {
      const { status, body } = await json(two, `/docs/apis/${index}/openapi.json`);
      expect(status).toBe(404);
      expect(body).toMatchObject({ code: 'not_found', status: 404 });
    }
  });
});

describe('the docs page without --spec', { timeout: 60_000 }, () => {
  it('lists the embedded Pet Store alone, at /v1, whose spec is /docs/openapi.json', async () => {
    expect((await json(one, '/docs/apis.json')).body).toEqual({ apis: [{ name: 'Pet Store 1.0.0 (/v1)', url: '/docs/apis/0/openapi.json', base: '/v1' }] });
    expect((await json(one, '/docs/apis/0/openapi.json')).body).toEqual((await json(one, '/docs/openapi.json')).body);
  });
});
