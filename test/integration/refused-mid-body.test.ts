/**
 * A /v1 request refused before its body arrived whole (no key, another
 * media type, a declared length over the limit) is answered at once and its
 * connection closed after the answer: the rest of the body is read and
 * dropped (test/robustness/over-limit-bodies.test.ts), never taken for the
 * next request. A request refused for what its body holds (read whole), or
 * one without a body, keeps its connection.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEY, startTestSandbox, type TestSandbox } from '../support/harness.js';
import { rawRequest } from '../support/raw-http.js';

let sb: TestSandbox;
let port: number;
beforeAll(async () => {
  sb = await startTestSandbox();
  port = Number(new URL(sb.origin).port);
});
afterAll(() => sb.stop());

/** A POST /v1/pets whose head declares `length` bytes of body, of which only `sent` is sent. */
const post = (headers: string, length: number, sent: string, type = 'application/json') =>
  `POST /v1/pets HTTP/1.1\r\nHost: localhost\r\nContent-Type: ${type}\r\nContent-Length: ${length}\r\n${headers}\r\n${sent}`;

const auth = `Authorization: Bearer ${KEY}\r\n`;

describe('a /v1 request refused while its body is still arriving', () => {
  it.each([
    ['without a key', '', 1000, 'application/json', 401],
    ['with another media type', auth, 1000, 'text/plain', 415],
    ['declaring a body over the limit', auth, 10_000_000, 'application/json', 413],
  ])('%s is answered at once and its connection closed', async (_label, headers, length, type, status) => {
    const res = await rawRequest(port, post(headers, length, '{"name":', type));
    expect(res.status).toBe(status);
    expect(res.headers.connection).toBe('close');
  });

  it('while one without a body, refused at once, keeps its connection: nothing of it is left to come', async () => {
    const res = await rawRequest(port, 'GET /v1/pets HTTP/1.1\r\nHost: localhost\r\n\r\n');
    expect(res.status).toBe(401);
    expect(res.headers.connection).toBe('keep-alive');
  });

  it('while one refused for what its whole body holds keeps its connection', async () => {
    const body = '{"name":"Rex"}';
    const res = await rawRequest(port, post(auth, body.length, body));
    expect(res.status).toBe(400);
    expect(res.headers.connection).toBe('keep-alive');
  });
});
