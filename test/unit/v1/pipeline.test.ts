/**
 * The engine's /v1 pipeline called through the dispatcher with plain
 * values: no server, no socket, the memory store. Each answer is checked
 * against spec/openapi.yaml by the tests' own checker, not by the server's
 * code; what each request became is announced once, as a value.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { EngineRequest, EngineResponse } from '../../../src/kernel/types.js';
import { silentLogger } from '../../../src/kernel/logger.js';
import { createStatefulMode } from '../../../src/modes/stateful/index.js';
import { loadSpec } from '../../../src/openapi/load-spec.js';
import type { V1Exchange } from '../../../src/kernel/operation.js';
import { openMemoryBackend } from '../../../src/store/memory/backend.js';
import { KEY, testConfig } from '../../support/harness.js';
import { expectSpecValid } from '../../support/spec-check.js';
import { engineOf } from '../../support/engine-of.js';

const spec = loadSpec();
const config = testConfig(['--store', 'memory', '--seed', '1', '--count', '5']);
const backend = openMemoryBackend({ config, logger: silentLogger, checkResponse: () => [], operations: spec.operations });
const engine = engineOf({ config, spec, stateful: createStatefulMode(backend.workspaces) });
const reported = engine.exchanges;
afterAll(() => backend.close());

const auth = { authorization: `Bearer ${KEY}` };
const bytes = (text: string) => new TextEncoder().encode(text);

/** One request through `handle`, with the answer's body as text and JSON, and what it reported. */
async function handle(request: EngineRequest) {
  const before = reported.length;
  const response: EngineResponse = await engine.handle(request);
  expect(typeof response.body === 'string' || response.body === undefined, 'a JSON answer is text').toBe(true);
  const text = response.body as string;
  expect(reported.length - before, 'reported once').toBe(1);
  return { response, text, json: JSON.parse(text) as unknown, exchange: reported.at(-1) as V1Exchange };
}

/** The answer as the checker takes it: headers by name, the body as sent. */
const checked = ({ response, text, json }: Awaited<ReturnType<typeof handle>>) => ({ status: response.status, headers: response.headers, body: json, text });

describe('the /v1 pipeline, called with plain values', () => {
  it('lists pets, synchronously on an open workspace, with the headers of the spec', async () => {
    // The first request opens the workspace; the next read of it is answered without a promise.
    await handle({ method: 'GET', url: '/v1/pets', headers: auth });
    const direct = engine.handle({ method: 'GET', url: '/v1/pets?limit=2', headers: { ...auth, 'x-request-id': 'trace-1' } });
    expect(direct).not.toBeInstanceOf(Promise);
    const got = await handle({ method: 'GET', url: '/v1/pets?limit=2', headers: { ...auth, 'x-request-id': 'trace-1' } });
    expect(got.response.status).toBe(200);
    expect(got.response.headers['Content-Type']).toBe('application/json');
    expect(got.response.headers['Content-Length']).toBe(Buffer.byteLength(got.text));
    expect(got.response.headers['X-Request-Id']).toBe('trace-1');
    expect(got.json).toHaveLength(2);
    await expectSpecValid('listPets', checked(got));
    expect(got.exchange).toMatchObject({ method: 'GET', url: '/v1/pets?limit=2', status: 200, key: KEY, requestId: 'trace-1', text: got.text });
    expect(got.exchange.op?.operationId).toBe('listPets');
  });

  it('gets a pet by id, with a new request id when the client sent none', async () => {
    const got = await handle({ method: 'GET', url: '/v1/pets/1', headers: auth });
    expect(got.response.status).toBe(200);
    expect(got.json).toMatchObject({ id: 1 });
    expect(got.response.headers['X-Request-Id']).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4/);
    await expectSpecValid('getPet', checked(got));
  });

  it('creates a pet from the body bytes, readable back', async () => {
    const body = bytes('{"name":"Engine","categoryId":3}');
    const got = await handle({ method: 'POST', url: '/v1/pets', headers: { ...auth, 'content-type': 'application/json' }, body });
    expect(got.response.status).toBe(201);
    await expectSpecValid('createPet', checked(got));
    expect(got.exchange.requestBytes).toBe(body);
    const id = (got.json as { id: number }).id;
    const read = await handle({ method: 'GET', url: `/v1/pets/${id}`, headers: auth });
    expect(read.json).toMatchObject({ id, name: 'Engine', categoryId: 3 });
  });

  it('refuses a request without a key: 401 with WWW-Authenticate, reported without a key', async () => {
    const got = await handle({ method: 'GET', url: '/v1/pets', headers: {} });
    expect(got.response.status).toBe(401);
    expect(got.response.headers['WWW-Authenticate']).toBe('Bearer');
    expect(got.json).toMatchObject({ code: 'unauthorized', status: 401 });
    await expectSpecValid('listPets', checked(got));
    expect(got.exchange.key).toBeUndefined();
  });

  it('refuses a body of another media type: 415, its bytes never parsed', async () => {
    const got = await handle({
      method: 'POST',
      url: '/v1/pets',
      headers: { ...auth, 'content-type': 'text/plain' },
      body: bytes('{"name":"X","categoryId":1}'),
    });
    expect(got.response.status).toBe(415);
    expect(got.json).toMatchObject({ code: 'unsupported_media_type', status: 415 });
    await expectSpecValid('createPet', checked(got));
  });

  it('answers a pet that does not exist 404, and a path no operation has 404 after auth', async () => {
    const missing = await handle({ method: 'GET', url: '/v1/pets/999', headers: auth });
    expect(missing.response.status).toBe(404);
    await expectSpecValid('getPet', checked(missing));
    const unknown = await handle({ method: 'GET', url: '/v1/pets/1/tags', headers: auth });
    expect(unknown.json).toEqual({ code: 'not_found', message: 'No operation at GET /v1/pets/1/tags.', status: 404 });
    expect(unknown.exchange.op).toBeUndefined();
    expect((await handle({ method: 'GET', url: '/v1/pets/1/tags', headers: {} })).response.status).toBe(401);
  });

  it('routes as Express did: HEAD as GET without a body, a trailing slash, 405 with Allow, 501 for the store area', async () => {
    const head = await engine.handle({ method: 'HEAD', url: '/v1/pets/1/', headers: auth });
    expect(head).toMatchObject({ status: 200, body: undefined });
    const wrong = await handle({ method: 'DELETE', url: '/v1/pets/1', headers: auth });
    expect(wrong.response).toMatchObject({ status: 405, headers: { Allow: 'GET, HEAD, OPTIONS' } });
    expect((await handle({ method: 'GET', url: '/v1/store/inventory', headers: auth })).response.status).toBe(501);
  });
});
