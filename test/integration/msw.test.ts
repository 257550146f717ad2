/**
 * `petstore-sandbox/msw` in Node: the handlers in MSW's real `setupServer`,
 * asked through the global `fetch`, answer as a library sandbox's own fetch
 * does (status, headers, body, byte for byte; then the journals) for
 * reads, creates, validation and auth errors, `Prefer`, CORS and faults.
 * A request to another origin or path falls through to the next handler, and
 * with `onUnhandledFrame: 'error'` (MSW 3's name of MSW 2's
 * `onUnhandledRequest`) one nobody handles fails; one the sandbox leaves reaches a
 * real listener through MSW's passthrough. A sandbox that cannot start rejects
 * `ready`, its requests and its controls.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { http, HttpResponse, passthrough } from 'msw';
import { setupServer, type SetupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, type PetstoreSandbox } from '../../src/index.js';
import { ConfigError, sandboxHandlers } from '../../src/msw.js';
import type { MswSandbox } from '../../src/library/msw-sandbox.js';
import { libraryStore, tempDir } from '../support/harness.js';

const ORIGIN = 'https://api.example.test';
const AUTH = { authorization: 'Bearer sandbox-key' };
const JSON_AUTH = { ...AUTH, 'content-type': 'application/json' };
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const OPTIONS = { seed: 7, count: 12, apiKeys: ['sandbox-key', 'other-key'] };

type Sent = [path: string, init?: RequestInit];
/** A handful of requests of every kind the engine answers: each is sent to both ways in, in order. */
const CORPUS: Sent[] = [
  ['/v1/pets'],
  ['/v1/pets?limit=3&status=available', { headers: AUTH }],
  ['/v1/pets/2', { headers: AUTH }],
  ['/v1/pets/999', { headers: AUTH }],
  ['/v1/pets/abc', { headers: AUTH }],
  ['/v1/pets', { method: 'POST', headers: JSON_AUTH, body: JSON.stringify({ name: 'Rex', categoryId: 2, status: 'available' }) }],
  ['/v1/pets', { method: 'POST', headers: JSON_AUTH, body: '{"name": 3}' }],
  ['/v1/pets', { method: 'POST', headers: JSON_AUTH, body: '{"name": "Rex",' }],
  ['/v1/pets', { method: 'POST', headers: { ...AUTH, 'content-type': 'text/plain' }, body: 'Rex' }],
  ['/v1/pets/13', { headers: AUTH }],
  ['/v1/pets/1', { headers: { ...AUTH, prefer: 'code=404' } }],
  ['/v1/pets', { method: 'OPTIONS', headers: { origin: 'http://app.test', 'access-control-request-method': 'POST' } }],
  ['/v1/pets?limit=2', { headers: { ...AUTH, origin: 'http://app.test' } }],
  ['/v1/pets', { method: 'DELETE', headers: AUTH }],
  ['/v1/pets', { headers: { authorization: 'Bearer nobody' } }],
];

interface Answer {
  status: number;
  headers: string[];
  body: string;
}

/** Status, headers as a sorted list (a made request id shown as such), body text. */
async function answerOf(response: Response): Promise<Answer> {
  const headers: string[] = [];
  response.headers.forEach((value, name) => headers.push(`${name}: ${name === 'x-request-id' && UUID.test(value) ? '<made>' : value}`));
  return { status: response.status, headers: headers.sort(), body: await response.text() };
}

/** A journal without what differs from one run to the next (when, how long). */
const journalOf = async (sandbox: { workspace(key?: string): { journal: { read(): Promise<{ entries: object[] }> } } }, key?: string) =>
  (await sandbox.workspace(key).journal.read()).entries.map((entry) => ({ ...entry, time: '<time>', durationMs: 0 }));

let msw: MswSandbox;
let twin: PetstoreSandbox;
let server: SetupServer;
/** A real listener on 127.0.0.1, another origin than the sandbox's: what the network answers. */
let network: Server;
let networkOrigin = '';
const viaMsw = (path: string, init?: RequestInit) => fetch(`${ORIGIN}${path}`, init);
const viaTwin = (path: string, init?: RequestInit) => twin.handler(new Request(`${ORIGIN}${path}`, init));

beforeAll(async () => {
  msw = sandboxHandlers({ ...OPTIONS, store: await libraryStore(), origin: ORIGIN });
  twin = await createSandbox({ ...OPTIONS, store: await libraryStore() });
  network = createServer((req, res) => res.end(`network ${req.url}`));
  await new Promise<void>((resolve) => network.listen(0, '127.0.0.1', resolve));
  networkOrigin = `http://127.0.0.1:${(network.address() as AddressInfo).port}`;
  const elsewhere = http.all('https://elsewhere.test/*', ({ request }) => HttpResponse.json({ next: new URL(request.url).pathname }));
  // After the sandbox's handlers: a request reaches this one, and so the network, only if the sandbox left it.
  const toNetwork = http.all(
    ({ request }) => new URL(request.url).origin === networkOrigin,
    () => passthrough(),
  );
  server = setupServer(...msw.handlers, elsewhere, toNetwork);
  server.listen({ onUnhandledFrame: 'error' });
  await msw.ready;
});
afterAll(async () => {
  server?.close();
  await Promise.all([msw?.close(), twin?.close(), new Promise((resolve) => network?.close(resolve))]);
});

describe('sandboxHandlers in setupServer', { timeout: 60_000 }, () => {
  it('answers each request as the library sandbox does, byte for byte, and journals the same', async () => {
    const statuses: number[] = [];
    for (const [path, init] of CORPUS) {
      const [got, want] = [await answerOf(await viaMsw(path, init)), await answerOf(await viaTwin(path, init))];
      expect(got, `${init?.method ?? 'GET'} ${path}`).toEqual(want);
      statuses.push(got.status);
    }
    // Each kind of answer is there: auth, reads, not found, create, validation, media type, Prefer, CORS, method.
    expect(statuses).toEqual([401, 200, 200, 404, 404, 201, 400, 400, 415, 200, 404, 204, 200, 405, 401]);
    expect((await journalOf(msw)).length).toBeGreaterThan(10);
    expect(await journalOf(msw)).toEqual(await journalOf(twin));
  });

  it('answers with an injected fault, then as before; the journal shows both', async () => {
    for (const sandbox of [msw, twin]) await sandbox.workspace().faults.add({ operationId: 'listPets', status: 503, count: 1 });
    for (let i = 0; i < 2; i++)
      expect(await answerOf(await viaMsw('/v1/pets', { headers: AUTH }))).toEqual(await answerOf(await viaTwin('/v1/pets', { headers: AUTH })));
    const statuses = (await msw.workspace().journal.read({ limit: 2 })).entries.map((entry) => entry.status);
    expect(statuses).toEqual([503, 200]);
  });

  it('seeds each workspace alike, keeps them apart, and resets, loads and checkpoints them through workspace(key)', async () => {
    const other = msw.workspace('other-key');
    const list = async (key: string) =>
      (await (await viaMsw('/v1/pets?limit=100', { headers: { authorization: `Bearer ${key}` } })).json()) as { name: string }[];
    expect(await list('other-key')).toHaveLength(12);
    expect(await list('sandbox-key')).toHaveLength(13);
    await other.checkpoint('seeded');
    await other.load({ pets: [{ id: 1, name: 'Only', categoryId: 1, status: 'sold' }] });
    expect((await list('other-key')).map((pet) => pet.name)).toEqual(['Only']);
    expect(await list('sandbox-key')).toHaveLength(13);
    await other.restore('seeded');
    expect(await list('other-key')).toHaveLength(12);
    await msw.workspace().reset({ count: 2 });
    expect(await list('sandbox-key')).toHaveLength(2);
    const otherPaths = (await other.journal.read()).entries.map((entry) => entry.path);
    expect(new Set(otherPaths)).toEqual(new Set(['/v1/pets']));
    expect(await (await msw.fetch('/v1/pets?limit=100', { headers: { authorization: 'Bearer other-key' } })).json()).toHaveLength(12);
  });

  it('leaves another origin and a path it does not serve to the next handler', async () => {
    expect(await (await fetch('https://elsewhere.test/v1/pets', { headers: AUTH })).json()).toEqual({ next: '/v1/pets' });
    expect(await (await fetch('https://elsewhere.test/api/pets')).json()).toEqual({ next: '/api/pets' });
    expect(await (await fetch(`${networkOrigin}/v1/pets`, { headers: AUTH })).text()).toBe('network /v1/pets');
  });

  it("fails a request nobody handles under onUnhandledFrame: 'error', the sandbox's origin too", async () => {
    await expect(fetch(`${ORIGIN}/api/pets`)).rejects.toThrow();
    await expect(fetch('https://nobody.test/v1/pets', { headers: AUTH })).rejects.toThrow();
    // The sandbox keeps answering.
    expect((await viaMsw('/livez')).status).toBe(200);
  });
});

describe('sandboxHandlers', () => {
  it('refuses a bad option at once, with the ConfigError the command line would give', () => {
    expect(() => sandboxHandlers({ count: -1 })).toThrow(ConfigError);
    expect(() => sandboxHandlers({ options: { 'journal-size': 'lots' } })).toThrow(/journal-size/);
  });

  it.each(['not a url', 'ftp://api.example.test', 'https://api.example.test/api?x=1', 'https://user:pw@api.example.test'])(
    'refuses the origin %j with a ConfigError naming origin, before a sandbox is made',
    (origin) => {
      expect(() => sandboxHandlers({ origin })).toThrow(ConfigError);
      expect(() => sandboxHandlers({ origin })).toThrow(
        `origin must be an http(s) address such as https://api.example.test (a path, as in https://api.example.test/api, is where the sandbox answers), without query or credentials; got '${origin}'`,
      );
    },
  );

  it('rejects ready, each request and each control when the sandbox cannot start; close still resolves', async () => {
    const file = join(tempDir(), 'db.json');
    const holder = await createSandbox({ store: file });
    const refused = sandboxHandlers({ store: file });
    await expect(refused.ready).rejects.toThrow(/db\.json/);
    await expect(refused.fetch('/v1/pets', { headers: AUTH })).rejects.toThrow(/db\.json/);
    await expect(refused.workspace().reset()).rejects.toThrow();
    await refused.close();
    await holder.close();
  });
});
