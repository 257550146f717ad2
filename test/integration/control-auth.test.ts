/**
 * Who may use the control plane, and how it answers malformed requests:
 * every response checked against spec/sandbox-control.yaml.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startControlSandbox, type Control } from '../support/control-client.js';
import { rawRequest } from '../support/raw-http.js';
import type { TestSandbox } from '../support/harness.js';

let sb: TestSandbox;
let ctl: Control;
beforeAll(async () => ({ sb, ctl } = await startControlSandbox(['--api-keys', 'key-a,key-b', '--admin-token', 'admin-1'])));
afterAll(() => sb.stop());

/** Every operation that needs the admin token, with a valid body where it takes one. */
const ADMIN_OPERATIONS: [string, string, unknown?][] = [
  ['GET', '/mode'],
  ['PUT', '/mode', { mode: 'stateful' }],
  ['GET', '/workspaces'],
  ['GET', '/fixtures'],
  ['POST', '/reset', {}],
  ['POST', '/load', { pets: [] }],
  ['GET', '/export'],
  ['GET', '/journal'],
  ['DELETE', '/journal'],
  ['GET', '/journal/stream'],
  ['GET', '/journal/unauthenticated'],
  ['DELETE', '/journal/unauthenticated'],
  ['GET', '/journal/unauthenticated/stream'],
  ['GET', '/operations'],
  ['GET', '/faults'],
  ['POST', '/faults', { operationId: 'listPets', status: 503 }],
  ['DELETE', '/faults'],
  ['DELETE', '/faults/1'],
];

describe('health', () => {
  it('answers without any credential, with mode and version', async () => {
    const res = await ctl('GET', '/health', { token: null });
    expect(res.status).toBe(200);
    const version = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
    expect(res.body).toMatchObject({ status: 'ok', mode: 'stateful', version });
    expect(res.body.uptimeSeconds).toBeGreaterThanOrEqual(0);
  });
});

describe('admin token', () => {
  it.each(ADMIN_OPERATIONS)('%s %s without a token is 401 with WWW-Authenticate', async (method, path, json) => {
    const res = await ctl(method, path, { token: null, json });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('unauthorized');
    expect(res.headers.get('www-authenticate')).toBe('Bearer realm="sandbox-control"');
  });

  it.each(ADMIN_OPERATIONS)('%s %s with a wrong token is 403', async (method, path, json) => {
    const res = await ctl(method, path, { token: 'not-the-admin', json });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: 'forbidden', message: 'Wrong admin token.' });
  });

  it.each(ADMIN_OPERATIONS)('%s %s with an API key is 403', async (method, path, json) => {
    const res = await ctl(method, path, { token: 'key-b', json });
    expect(res.status).toBe(403);
    expect(res.body.message).toMatch(/API keys cannot use the control plane/);
  });

  it('treats a non-Bearer Authorization header as no token (401)', async () => {
    const res = await ctl('GET', '/mode', { headers: { authorization: 'Basic YWRtaW4tMTp4' } });
    expect(res.status).toBe(401);
  });

  it('the default admin token is not accepted once another is configured', async () => {
    expect((await ctl('GET', '/mode', { token: 'sandbox-admin' })).status).toBe(403);
    expect((await ctl('GET', '/mode')).status).toBe(200);
  });

  it('answers an undescribed path or method 404 (after the admin check)', async () => {
    expect((await ctl('GET', '/nope', { token: null })).status).toBe(401);
    const res = await ctl('PATCH', '/mode');
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('not_found');
  });
});

describe('X-Sandbox-Key', () => {
  it.each(['GET /export', 'GET /journal', 'GET /faults', 'DELETE /journal'])('%s with a malformed key is 400', async (op) => {
    const [method, path] = op.split(' ') as [string, string];
    const res = await ctl(method, path, { key: 'bad key!' });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/X-Sandbox-Key/);
  });

  it('an API key that is not configured has no workspace: 404, and reset changes nothing', async () => {
    const res = await ctl('POST', '/reset', { key: 'key-c', json: { empty: true } });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('not_found');
    expect((await ctl('GET', '/workspaces')).body.workspaces).toHaveLength(2);
  });
});

describe('request bodies', () => {
  it('refuses a body that is not application/json with 415', async () => {
    const res = await ctl('POST', '/reset', { body: 'empty=true', headers: { 'content-type': 'text/plain' } });
    expect(res.status).toBe(415);
    expect(res.body.code).toBe('unsupported_media_type');
  });

  it('refuses a chunked body that is not application/json with 415, changing nothing', async () => {
    await ctl('POST', '/reset', { json: { seed: 2, count: 3 } });
    const before = (await ctl('GET', '/export')).text;
    // A streamed body has no Content-Length: it is sent with Transfer-Encoding: chunked.
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('empty=true'));
        controller.close();
      },
    });
    const res = await ctl('POST', '/reset', { body: stream, headers: { 'content-type': 'text/plain' } });
    expect(res.status).toBe(415);
    expect((await ctl('GET', '/export')).text).toBe(before);
  });

  it('refuses malformed JSON with 400', async () => {
    const res = await ctl('POST', '/reset', { body: '{"empty":', headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('invalid_request');
  });

  it('refuses a JSON body that is not an object with 400', async () => {
    const res = await ctl('PUT', '/mode', { json: ['stateful'] });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/JSON object/);
  });

  it('refuses a body over 64 MiB with 413', { timeout: 60_000 }, async () => {
    // Sent whole: the body parser reads a refused body to its end before answering.
    const res = await ctl('POST', '/load', { body: ' '.repeat(64 * 1024 * 1024 + 1), headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(413);
    expect(res.body.code).toBe('payload_too_large');
  });

  it('refuses a request without a credential before reading its body: 401 while the body is still to come', async () => {
    const port = Number(new URL(sb.origin).port);
    // Only the head is sent: an answer that waited for the 64 MiB announced would never come.
    const head = 'POST /__sandbox/load HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 67108864\r\n\r\n';
    const res = await rawRequest(port, head, { timeoutMs: 4_000 });
    expect(res.status).toBe(401);
    expect(res.headers.connection).toBe('close');
  });

  it('accepts a reset without any body', async () => {
    const res = await ctl('POST', '/reset');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ count: 50, nextId: 51 });
  });
});
