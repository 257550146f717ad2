/**
 * The specs served by convention through the other ways in: a library
 * sandbox's in-process `fetch` (specs as files, on the run's store), and
 * MSW's `setupServer` with the specs given as objects (what a browser
 * passes), at an origin of its own. The same scenario on each, every
 * answer checked against its own spec.
 */
import { readFileSync } from 'node:fs';
import { setupServer, type SetupServer } from 'msw/node';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSandbox, type PetstoreSandbox } from '../../src/index.js';
import { sandboxHandlers } from '../../src/msw.js';
import type { MswSandbox } from '../../src/library/msw-sandbox.js';
import { libraryStore } from '../support/harness.js';
import { INVENTORY, PETSTORE_11, servedApi } from '../support/own-spec.js';

const ORIGIN = 'https://api.example.test';
const documentOf = (file: string) => parse(readFileSync(file, 'utf8')) as Record<string, unknown>;

/** Orders at /v1 and items at /api/v2, created, read, listed, removed; each answer checked. */
async function scenario(fetcher: typeof fetch, origin: string): Promise<void> {
  const v1 = servedApi(fetcher, origin, '/v1', PETSTORE_11);
  const v2 = servedApi(fetcher, origin, '/api/v2', INVENTORY);
  const placed = await v1.send('/store/orders', { json: { petId: 1, quantity: 2 } });
  expect(placed.status).toBe(201);
  expect(placed.body).toMatchObject({ id: 4, petId: 1, quantity: 2, complete: false });
  expect((await v1.send('/store/orders?limit=50')).body).toHaveLength(4);
  expect((await v1.send('/store/orders/4', { method: 'DELETE' })).status).toBe(204);
  expect((await v1.send('/store/orders/4')).status).toBe(404);
  const created = await v2.send('/items', { apiKey: 'sandbox-key', json: { name: 'Saw', sku: 'SAW-0001', category: 'tools' } });
  expect(created.status).toBe(201);
  expect((await v2.send(`/items/${created.body.id as string}`, { apiKey: 'sandbox-key' })).body).toEqual(created.body);
  expect((await v2.send('/items', { bearer: 'sandbox-key' })).status).toBe(401);
  expect((await v2.send('/nothing-here', { apiKey: 'sandbox-key' })).status).toBe(404);
}

describe('a library sandbox, specs as files', { timeout: 60_000 }, () => {
  let sandbox: PetstoreSandbox;
  beforeAll(async () => {
    sandbox = await createSandbox({ spec: [PETSTORE_11, INVENTORY], count: 3, store: await libraryStore() });
  }, 60_000);
  afterAll(() => sandbox?.close());

  it('serves both specs statefully in process', async () => {
    await scenario((input, init) => sandbox.fetch(input as string, init), '');
  });
});

describe('MSW in Node, specs as objects', { timeout: 60_000 }, () => {
  let msw: MswSandbox;
  let server: SetupServer;
  beforeAll(async () => {
    msw = sandboxHandlers({ spec: [documentOf(PETSTORE_11), documentOf(INVENTORY)], count: 3, origin: ORIGIN });
    server = setupServer(...msw.handlers);
    server.listen({ onUnhandledFrame: 'error' });
    await msw.ready;
  }, 60_000);
  afterAll(async () => {
    server?.close();
    await msw?.close();
  });

  it('serves both specs statefully at its origin', async () => {
    await scenario(fetch, ORIGIN);
  });

  it('leaves a path under no spec to the next handler', async () => {
    await expect(fetch(`${ORIGIN}/v2/pets`)).rejects.toThrow();
  });
});
