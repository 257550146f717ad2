/**
 * The browser's sandbox and its MSW entry, run on Node with the files read
 * where the bundle embeds them (test/package/browser-bundle.test.ts runs the
 * bundle in Chromium): the same answers as the Node library, the fixture
 * sets with the same names and refusals, and what needs Node refused clearly.
 */
import { getResponse } from 'msw';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBrowserSandbox, sandboxHandlers, type BrowserSandbox } from '../../../src/msw-browser.js';
import { createSandbox, type PetstoreSandbox } from '../../../src/index.js';
import { ConfigError } from '../../../src/config/error.js';

const AUTH = { authorization: 'Bearer sandbox-key' };
const ADMIN = { authorization: 'Bearer sandbox-admin', 'content-type': 'application/json' };
let browser: BrowserSandbox;
let node: PetstoreSandbox;

beforeAll(async () => {
  [browser, node] = await Promise.all([createBrowserSandbox({ seed: 5, count: 12 }), createSandbox({ seed: 5, count: 12 })]);
});
afterAll(() => Promise.all([browser.close(), node.close()]));

/** Status, the headers but the request id, and the body of a response (a workspace id is keyed by each sandbox's own random secret). */
async function seen(response: Response) {
  const headers = [...response.headers].filter(([name]) => name !== 'x-request-id');
  return { status: response.status, headers, body: (await response.text()).replace(/"workspace":"[0-9a-f]{16}"/g, '"workspace":"…"') };
}

describe('createBrowserSandbox', () => {
  it.each([
    ['a list', '/v1/pets?status=available&limit=5', {}],
    ['a read', '/v1/pets/3', {}],
    ['a missing pet', '/v1/pets/999', {}],
    ['a bad query', '/v1/pets?limit=abc', {}],
    ['no key', '/v1/pets', { headers: {} }],
    ['a create', '/v1/pets', { method: 'POST', headers: { ...AUTH, 'content-type': 'application/json' }, body: '{"name":"Rex","categoryId":1}' }],
    ['an unknown fixture set', '/__sandbox/load', { method: 'POST', headers: { ...ADMIN, 'x-sandbox-key': 'sandbox-key' }, body: '{"fixture":"nope"}' }],
    ['a bad fixture name', '/__sandbox/load', { method: 'POST', headers: { ...ADMIN, 'x-sandbox-key': 'sandbox-key' }, body: '{"fixture":"../x"}' }],
    ['a fixture set', '/__sandbox/load', { method: 'POST', headers: { ...ADMIN, 'x-sandbox-key': 'sandbox-key' }, body: '{"fixture":"every-status"}' }],
    ['the list after it', '/v1/pets', {}],
    ['the fixture sets', '/__sandbox/fixtures', { headers: ADMIN }],
  ])('answers %s as the Node library does', async (_label, path, init: RequestInit) => {
    const ask = (s: { fetch: PetstoreSandbox['fetch'] }) => s.fetch(path, { headers: AUTH, ...init });
    expect(await seen(await ask(browser))).toEqual(await seen(await ask(node)));
  });

  it('refuses a switch to a Prism mode with 501 not_implemented, and keeps its mode', async () => {
    const response = await browser.fetch('/__sandbox/mode', { method: 'PUT', headers: ADMIN, body: '{"mode":"dynamic"}' });
    expect(response.status).toBe(501);
    expect(await response.json()).toMatchObject({ code: 'not_implemented', message: expect.stringContaining("Mode 'dynamic' answers through Prism") });
    // It offers only the mode it can answer in.
    expect(await (await browser.fetch('/__sandbox/mode', { headers: ADMIN })).json()).toEqual({ mode: 'stateful', modes: ['stateful'] });
  });

  it('refuses a switch to proxy mode with 501 not_implemented: it cannot forward', async () => {
    const response = await browser.fetch('/__sandbox/mode', { method: 'PUT', headers: ADMIN, body: '{"mode":"proxy"}' });
    expect(response.status).toBe(501);
    expect(await response.json()).toMatchObject({ code: 'not_implemented', message: expect.stringContaining("Mode 'proxy' forwards from Node") });
  });

  it("refuses Prefer's examples, which need Prism, with 501", async () => {
    const response = await browser.fetch('/v1/pets', { headers: { ...AUTH, prefer: 'code=200' } });
    expect(response.status).toBe(501);
    expect(await response.json()).toMatchObject({ code: 'not_implemented' });
  });
});

describe("the browser's sandboxHandlers", () => {
  it.each([
    [{ mode: 'example' as const }, /^mode 'example' answers through Prism, which runs only on Node/],
    [{ mode: 'proxy' as const }, /^mode 'proxy': proxy mode forwards to a deployment from Node; a sandbox in a browser cannot forward/],
    [{ options: { upstream: 'http://127.0.0.1:9' } }, /^options\.upstream: proxy mode forwards to a deployment from Node/],
    [{ store: 'postgres://user:hunter2@db/pets' }, /^store: in a browser the sandbox keeps its data in memory only/],
    [{ store: './data/db.json' }, /^store: /],
    [{ port: 0 }, /^port: a sandbox in a browser opens no port/],
    [
      { options: { 'admin-token-file': '/run/secrets/token' } },
      /^cannot read options\['admin-token-file'\] '\/run\/secrets\/token': a sandbox in a browser reads no file/,
    ],
    [{ options: { 'no-such-option': 1 } }, /^unknown option options\['no-such-option'\]$/],
    [{ options: { 'journl-size': 5 } }, /^unknown option options\['journl-size'\] \(did you mean options\['journal-size'\]\?\)$/],
    [{ prot: 4011 } as object, /^unknown option 'prot' \(did you mean port\?\)$/],
    [{ count: -1 }, /^count must be between 0 and 1000000, got '-1'$/],
  ])('throws a ConfigError at once for %o', (options, message) => {
    let thrown: unknown;
    try {
      sandboxHandlers(options);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ConfigError);
    expect((thrown as Error).message).toMatch(message);
    expect((thrown as Error).message).not.toContain('hunter2');
  });

  it('answers through MSW as the Node library does, and controls its workspace', async () => {
    const sandbox = sandboxHandlers({ seed: 6, count: 12, origin: 'https://api.example.test' });
    const fresh = await createSandbox({ seed: 6, count: 12 });
    try {
      await sandbox.ready;
      const response = await getResponse(sandbox.handlers, new Request('https://api.example.test/v1/pets', { headers: AUTH }));
      expect(await seen(response as Response)).toEqual(await seen(await fresh.fetch('/v1/pets', { headers: AUTH })));
      await sandbox.workspace().faults.add({ operationId: 'listPets', status: 503, count: 1 });
      const faulted = await getResponse(sandbox.handlers, new Request('https://api.example.test/v1/pets', { headers: AUTH }));
      expect(faulted?.status).toBe(503);
      expect((await sandbox.workspace().journal.read()).entries.map((e) => e.status)).toEqual([200, 503]);
    } finally {
      await Promise.all([sandbox.close(), fresh.close()]);
    }
  });

  it('answers under the path of its origin, as the Node entry does, and refuses an origin that is no address', async () => {
    expect(() => sandboxHandlers({ origin: 'not a url' })).toThrow(ConfigError);
    expect(() => sandboxHandlers({ origin: 'not a url' })).toThrow(/^origin must be an http\(s\) address such as https:\/\/api\.example\.test /);
    const sandbox = sandboxHandlers({ count: 3, origin: 'https://api.example.test/api' });
    try {
      const at = (path: string, init?: RequestInit) => getResponse(sandbox.handlers, new Request(`https://api.example.test${path}`, init));
      const body = JSON.stringify({ name: 'Under', categoryId: 1 });
      const created = await at('/api/v1/pets', { method: 'POST', headers: { ...AUTH, 'content-type': 'application/json' }, body });
      expect([created?.status, ((await created?.json()) as { name: string }).name]).toEqual([201, 'Under']);
      expect(await at('/v1/pets', { headers: AUTH })).toBeUndefined();
      expect((await sandbox.workspace().journal.read()).entries.map((e) => [e.method, e.path, e.status])).toEqual([['POST', '/v1/pets', 201]]);
    } finally {
      await sandbox.close();
    }
  });
});
