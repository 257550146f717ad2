/**
 * The MSW adapter answers with the engine the requests the engine serves, at
 * the origin it is given, and leaves every other one to the next handler: run
 * through MSW's own handler lookup (`getResponse`), no network.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getResponse, http, HttpResponse, type RequestHandler } from 'msw';
import { mswHandlers } from '../../../src/adapters/msw.js';
import { createSandbox, type PetstoreSandbox } from '../../../src/index.js';

const AUTH = { authorization: 'Bearer sandbox-key' };
const NEXT = http.all('*', () => HttpResponse.text('next handler'));
let sandbox: PetstoreSandbox;

beforeAll(async () => {
  sandbox = await createSandbox({ seed: 3, count: 4 });
});
afterAll(() => sandbox.close());

/** MSW's answer to a GET through `handlers`; a request none of them answers is an error here. */
async function answer(handlers: RequestHandler[], url: string, headers: Record<string, string> = AUTH): Promise<Response> {
  const response = await getResponse(handlers, new Request(url, { headers }));
  if (response === undefined) throw new Error(`no handler answered ${url}`);
  return response;
}

describe('mswHandlers', () => {
  it('answers /v1 as the fetch handler does', async () => {
    const response = await answer(mswHandlers(sandbox.handler), 'https://api.example.test/v1/pets');
    const direct = await sandbox.fetch('/v1/pets', { headers: AUTH });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe(await direct.text());
  });

  it('serves the control plane and the probes', async () => {
    const handlers = [...mswHandlers(sandbox.handler), NEXT];
    expect((await answer(handlers, 'http://localhost/livez', {})).status).toBe(200);
    const journal = await answer(handlers, 'http://localhost/__sandbox/journal', { authorization: 'Bearer sandbox-admin', 'x-sandbox-key': 'sandbox-key' });
    expect(journal.status).toBe(200);
    expect(journal.headers.get('content-type')).toMatch(/^application\/json/);
  });

  it('leaves a path the engine does not serve to the next handler, or to nobody', async () => {
    const handlers = [...mswHandlers(sandbox.handler), NEXT];
    expect(await (await answer(handlers, 'http://localhost/v2/pets')).text()).toBe('next handler');
    expect(await (await answer(handlers, 'http://localhost/v1x')).text()).toBe('next handler');
    expect(await getResponse(mswHandlers(sandbox.handler), new Request('http://localhost/api/pets'))).toBeUndefined();
  });

  it('answers only at its origin when given one', async () => {
    const handlers = [...mswHandlers(sandbox.handler, { origin: 'https://API.example.test/' }), NEXT];
    expect((await answer(handlers, 'https://api.example.test/v1/pets')).status).toBe(200);
    expect(await (await answer(handlers, 'https://other.example.test/v1/pets')).text()).toBe('next handler');
    expect(await (await answer(handlers, 'http://api.example.test/v1/pets')).text()).toBe('next handler');
  });

  it('falls through when the fetch handler answers undefined', async () => {
    const handlers = [...mswHandlers(() => Promise.resolve(undefined)), NEXT];
    expect(await (await answer(handlers, 'http://localhost/v1/pets')).text()).toBe('next handler');
  });
});
