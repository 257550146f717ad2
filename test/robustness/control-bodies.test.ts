/**
 * The control plane's JSON bodies get the same treatment as /v1's: nested
 * too deep, malformed or of the wrong type, each is a 400 Error and changes
 * nothing (the store, its mode and its faults stay as they were).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientOf } from '../support/control-client.js';
import { startTestSandbox, type TestSandbox } from '../support/harness.js';
import { rawRequest } from '../support/raw-http.js';

const ADMIN = 'Authorization: Bearer sandbox-admin';
const deep = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox(['--count', '5']);
});
afterAll(() => sb.stop());

async function state(): Promise<unknown> {
  const control = clientOf(sb);
  return { store: await control.call('exportWorkspace'), mode: await control.call('getMode'), faults: await control.call('listFaults') };
}

const cases: [string, string, string][] = [
  ['POST', '/__sandbox/faults', `{"operationId":${deep(40_000)},"status":500}`],
  ['POST', '/__sandbox/faults', `{"operationId":${deep(32)},"status":500}`],
  ['POST', '/__sandbox/load', `{"pets":${deep(40_000)}}`],
  ['POST', '/__sandbox/load', '{"pets":[{"id":1,"name":"a","categoryId":1}'],
  ['POST', '/__sandbox/load', '{"pets":[{"id":1e400,"name":"a","categoryId":1}]}'],
  ['POST', '/__sandbox/reset', `{"seed":${deep(100)}}`],
  ['POST', '/__sandbox/reset', '{"count":-1}'],
  ['PUT', '/__sandbox/mode', `{"mode":${deep(33)}}`],
  ['PUT', '/__sandbox/mode', '"stateful"'],
];

describe('control-plane bodies', () => {
  it.each(cases)('%s %s with a bad body is a 400 Error and changes nothing', async (method, path, body) => {
    const before = await state();
    const res = await rawRequest(
      Number(new URL(sb.origin).port),
      `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${ADMIN}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
    expect(res.status, res.body).toBe(400);
    expect(res.headers['content-type']).toBe('application/json');
    expect(JSON.parse(res.body)).toMatchObject({ code: 'invalid_request', status: 400 });
    expect(await state()).toEqual(before);
  });
});
