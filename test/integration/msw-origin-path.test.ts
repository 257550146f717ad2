/**
 * `sandboxHandlers({ origin })` with a path: the sandbox answers only under
 * it, and sees each request without it, in MSW's real `setupServer` (a file
 * of its own: two servers listening at once would both intercept).
 */
import { http, HttpResponse } from 'msw';
import { setupServer, type SetupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxHandlers, type MswSandbox } from '../../src/msw.js';

const ORIGIN = 'https://api.example.test';
const AUTH = { authorization: 'Bearer sandbox-key' };
const JSON_AUTH = { ...AUTH, 'content-type': 'application/json' };
const OPTIONS = { seed: 7, count: 12 };

describe('sandboxHandlers at an origin with a path', () => {
  const AT = `${ORIGIN}/api`;
  let sandbox: MswSandbox;
  let server: SetupServer;
  beforeAll(() => {
    sandbox = sandboxHandlers({ ...OPTIONS, origin: `${AT}/` });
    const next = http.all('*', ({ request }) => HttpResponse.json({ next: new URL(request.url).pathname }));
    server = setupServer(...sandbox.handlers, next);
    server.listen({ onUnhandledFrame: 'error' });
  });
  afterAll(async () => {
    server.close();
    await sandbox.close();
  });

  it('answers requests under the path, which the sandbox sees without it', async () => {
    const list = await fetch(`${AT}/v1/pets?limit=3`, { headers: AUTH });
    expect([list.status, ((await list.json()) as unknown[]).length]).toEqual([200, 3]);
    const body = JSON.stringify({ name: 'Under', categoryId: 2, status: 'available' });
    const created = await fetch(`${AT}/v1/pets`, { method: 'POST', headers: JSON_AUTH, body });
    expect([created.status, ((await created.json()) as { name: string }).name]).toEqual([201, 'Under']);
    expect((await fetch(`${AT}/livez`)).status).toBe(200);
    const paths = (await sandbox.workspace().journal.read({ limit: 2 })).entries.map((entry) => [entry.method, entry.path]);
    expect(paths).toEqual([
      ['GET', '/v1/pets'],
      ['POST', '/v1/pets'],
    ]);
  });

  it('leaves the origin without the path, and other paths under it, to the next handler', async () => {
    expect(await (await fetch(`${ORIGIN}/v1/pets`, { headers: AUTH })).json()).toEqual({ next: '/v1/pets' });
    expect(await (await fetch(`${AT}/other`)).json()).toEqual({ next: '/api/other' });
    expect(await (await fetch(`${ORIGIN}/apiv1/pets`)).json()).toEqual({ next: '/apiv1/pets' });
  });
});
