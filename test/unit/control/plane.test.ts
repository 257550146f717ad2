/**
 * The control plane called directly with plain values: no server,
 * no socket. A real memory store behind it; the journal counts its live
 * followers so a test can see a stream let go of its listener.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { JournalStore } from '../../../src/store/backend.js';
import { loadConfig } from '../../../src/config/load.js';
import { responseChecker } from '../../../src/store/journal/capture.js';
import { createControlPlane, type ControlPlaneResponse } from '../../../src/control/plane.js';
import { requestIdOf } from '../../../src/engine/engine.js';
import { loadControlSpec } from '../../../src/server/control-spec.js';
import { fixtureFiles } from '../../../src/server/fixture-files.js';
import { isEngineStream, type EngineRequest } from '../../../src/kernel/types.js';
import { silentLogger } from '../../../src/kernel/logger.js';
import { createValidators } from '../../../src/openapi/validate.js';
import { createMetrics } from '../../../src/ops/metrics.js';
import { openMemoryBackend } from '../../../src/store/memory/backend.js';
import { spec } from '../../support/operation-request.js';

const ADMIN = 'admin-1';
const { config } = loadConfig(['--store', 'memory', '--admin-token', ADMIN, '--api-keys', 'key-a,key-b', '--seed', '1', '--count', '3'], {});
const validators = createValidators(spec);
const backend = openMemoryBackend({ config, logger: silentLogger, checkResponse: responseChecker(spec, validators), operations: spec.operations });
afterAll(() => backend.close());

/** The real journal, with a count of the listeners that follow it now. */
let following = 0;
const journal: JournalStore = {
  get size() {
    return backend.journal.size;
  },
  add: (workspace, record) => backend.journal.add(workspace, record),
  read: (workspace, limit) => backend.journal.read(workspace, limit),
  since: (workspace, after) => backend.journal.since(workspace, after),
  clear: (workspace) => backend.journal.clear(workspace),
  memory: () => backend.journal.memory(),
  counts: (workspace) => backend.journal.counts(workspace),
  follow(workspace, listener) {
    following += 1;
    const stop = backend.journal.follow(workspace, listener);
    return () => {
      following -= 1;
      stop();
    };
  },
};

const unexpected: unknown[] = [];
const plane = createControlPlane({
  config,
  runtime: backend.mode,
  workspaces: backend.workspaces,
  journal,
  faults: backend.faults,
  ...(backend.checkpoints ? { checkpoints: backend.checkpoints } : {}),
  checkPet: validators.schema('/components/schemas/Pet', 'record'),
  operations: spec.operations,
  version: '0.0.0-test',
  startedAt: Date.now(),
  probes: { draining: () => false, backend },
  metrics: createMetrics({ workspaces: backend.workspaces, journalMemory: () => backend.journal.memory() }),
  interfaceSpec: spec,
  controlSpec: loadControlSpec(),
  fixtures: fixtureFiles(),
  onUnexpected: (error) => unexpected.push(error),
});

/** The plane as the dispatcher calls it: with the request's id, made as the dispatcher makes it. */
const engine = { handle: (request: EngineRequest) => plane.handle(request, requestIdOf(request.headers)) };

/** A request as an adapter hands it over: lower-case headers, the body as bytes. */
function request(
  method: string,
  url: string,
  options: { token?: string | null; json?: unknown; headers?: Record<string, string>; signal?: AbortSignal } = {},
): EngineRequest {
  const token = options.token === undefined ? ADMIN : options.token;
  const headers: Record<string, string> = { ...(token === null ? {} : { authorization: `Bearer ${token}` }), ...options.headers };
  if (options.json !== undefined) headers['content-type'] = 'application/json';
  return {
    method,
    url,
    headers,
    ...(options.json !== undefined ? { body: new TextEncoder().encode(JSON.stringify(options.json)) } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  };
}

async function call(...args: Parameters<typeof request>): Promise<ControlPlaneResponse> {
  const answer = engine.handle(request(...args));
  if (!answer) throw new Error(`The engine does not own ${args[0]} ${args[1]}`);
  return answer;
}

const json = (response: ControlPlaneResponse): unknown => JSON.parse(response.body as string);

describe('the control engine, called with plain values', () => {
  it('answers GET /__sandbox/workspaces with the admin token: exact JSON type, length, request id, operation', async () => {
    const response = await call('GET', '/__sandbox/workspaces', { headers: { 'x-request-id': 'trace-1' } });
    expect(response).toMatchObject({ status: 200, operation: 'listWorkspaces' });
    expect(response.headers['Content-Type']).toBe('application/json');
    expect(response.headers['Content-Length']).toBe(Buffer.byteLength(response.body as string));
    expect(response.headers['X-Request-Id']).toBe('trace-1');
    expect(json(response)).toMatchObject({ workspaces: expect.any(Array) });
  });

  it('refuses a request without a credential with 401 and WWW-Authenticate, running nothing', async () => {
    const response = await call('GET', '/__sandbox/workspaces', { token: null });
    expect(response).toMatchObject({ status: 401, operation: undefined });
    expect(response.headers['WWW-Authenticate']).toBe('Bearer realm="sandbox-control"');
    expect(json(response)).toMatchObject({ code: 'unauthorized', status: 401 });
    expect(response.headers['X-Request-Id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('refuses an API key on an admin-only operation with 403', async () => {
    const response = await call('POST', '/__sandbox/reset', { token: 'key-a', json: { empty: true } });
    expect(response.status).toBe(403);
    expect(json(response)).toMatchObject({ code: 'forbidden', status: 403, message: 'API keys cannot use the control plane; send the admin token.' });
  });

  it('reads a body only once the credential has passed, through the reader of the way in', async () => {
    const reads: number[] = [];
    const reader = (text: string) => ({
      read: (limit: number) => (reads.push(limit), Promise.resolve(new TextEncoder().encode(text))),
      raw: () => Promise.reject(new Error('not asked')),
    });
    const refused = await engine.handle({ ...request('POST', '/__sandbox/reset', { token: 'key-a', json: {} }), body: reader('{}') });
    expect(refused?.status).toBe(403);
    expect(reads).toEqual([]);
    const done = await engine.handle({ ...request('POST', '/__sandbox/reset', { json: {} }), body: reader('{"empty":true}') });
    expect(done).toMatchObject({ status: 200, operation: 'resetWorkspace' });
    expect(reads).toEqual([64 * 1024 * 1024]);
  });

  it('loads a fixture set, then reads it back in a streamed export', async () => {
    const pets = [{ id: 7, name: 'Rex', categoryId: 1 }];
    const loaded = await call('POST', '/__sandbox/load', { json: { pets }, headers: { 'x-sandbox-key': 'key-b' } });
    expect(loaded).toMatchObject({ status: 200, operation: 'loadFixture' });
    const exported = await call('GET', '/__sandbox/export', { headers: { 'x-sandbox-key': 'key-b' } });
    expect(exported.headers['Content-Type']).toBe('application/json');
    expect(isEngineStream(exported.body)).toBe(true);
    let text = '';
    for await (const piece of exported.body as AsyncIterable<string>) text += piece;
    expect(JSON.parse(text)).toMatchObject({ pets: [{ id: 7, name: 'Rex' }] });
  });

  it('refuses a body that is not JSON (415) and one over 64 MiB (413), with Error bodies', async () => {
    const text = await call('POST', '/__sandbox/reset', { headers: { 'content-type': 'text/plain' } });
    expect(text.status).toBe(200); // no body at all: nothing to refuse
    const typed = engine.handle({
      ...request('POST', '/__sandbox/reset'),
      headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'text/plain' },
      body: new TextEncoder().encode('x'),
    });
    expect(await typed).toMatchObject({ status: 415, operation: undefined });
    const large = await engine.handle({ ...request('POST', '/__sandbox/load', { json: {} }), body: new Uint8Array(64 * 1024 * 1024 + 1) });
    expect(large && json(large)).toMatchObject({ code: 'payload_too_large', status: 413 });
  });

  it('follows the live journal: the open event and each new entry, and lets go of its listener when the reader stops', async () => {
    const response = await call('GET', '/__sandbox/journal/stream', { headers: { 'x-sandbox-key': 'key-a' } });
    expect(response.headers).toMatchObject({ 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-store' });
    expect(following).toBe(1);
    const events = (response.body as AsyncIterable<string>)[Symbol.asyncIterator]();
    expect((await events.next()).value).toMatch(/^event: open\ndata: \{"workspace":"[^"]+","backlog":0\}\n\n$/);
    const workspace = backend.workspaces.idOf('key-a');
    journal.add(workspace, {
      time: Date.now(),
      method: 'GET',
      url: '/v1/pets?limit=2',
      operationId: 'listPets',
      status: 200,
      durationMs: 1,
      request: undefined,
      response: undefined,
    });
    expect((await events.next()).value).toMatch(/^id: \d+\nevent: entry\ndata: \{.*"path":"\/v1\/pets".*\}\n\n$/);
    await events.return?.();
    expect(following).toBe(0);
    expect(await events.next()).toEqual({ done: true, value: undefined });
  });

  it('stops a live journal when its signal aborts, and drops a reader that falls more than 4 MiB behind', async () => {
    const controller = new AbortController();
    await call('GET', '/__sandbox/journal/unauthenticated/stream', { signal: controller.signal });
    expect(following).toBe(1);
    controller.abort();
    expect(following).toBe(0);
    const slow = await call('GET', '/__sandbox/journal/stream');
    const record = {
      time: Date.now(),
      method: 'GET',
      url: `/v1/pets?tag=${'x'.repeat(2000)}`,
      operationId: 'listPets',
      status: 200,
      durationMs: 1,
      request: undefined,
      response: undefined,
    };
    for (let i = 0; i < 2500 && following > 0; i += 1) journal.add(backend.workspaces.idOf('key-a'), record);
    expect(following).toBe(0);
    expect(await (slow.body as AsyncIterable<string>)[Symbol.asyncIterator]().next()).toEqual({ done: true, value: undefined });
  });

  it('answers /livez at the root, and leaves what it does not own', async () => {
    const live = await call('GET', '/livez', { token: null });
    expect(live).toMatchObject({ status: 200, operation: 'getLiveness' });
    expect(engine.handle(request('GET', '/v1/pets'))).toBeUndefined();
    expect(engine.handle(request('POST', '/livez'))).toBeUndefined();
    expect(engine.handle(request('GET', '/__sandboxes'))).toBeUndefined();
    expect(await call('GET', '/__sandbox/nope')).toMatchObject({ status: 404, operation: undefined });
    expect(unexpected).toEqual([]);
  });
});
