/**
 * A client that never finishes its request head (slowloris) does not hold a
 * connection for ever: it gets the 408 Error and the connection is closed.
 * How long that takes is a limit (README, "Limits"), not asserted here.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSandbox, type TestSandbox } from '../support/harness.js';

let sb: TestSandbox;
beforeAll(async () => {
  sb = await startTestSandbox();
});
afterAll(() => sb.stop());

describe('request timeouts', () => {
  it('answers an unfinished request head with a 408 Error and closes the connection', { timeout: 60_000 }, async () => {
    const socket = connect(Number(new URL(sb.origin).port), '127.0.0.1');
    socket.write('GET /v1/pets HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer sandbox-key\r\n');
    let received = '';
    socket.on('data', (chunk: Buffer) => void (received += chunk.toString()));
    await new Promise((resolve) => socket.once('close', resolve));
    const [head = '', body = ''] = received.split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 408 /);
    expect(head).toMatch(/\r\nContent-Type: application\/json\r\n/);
    expect(JSON.parse(body)).toEqual({ code: 'request_timeout', message: expect.any(String) as unknown, status: 408 });
  });
});
