/**
 * A client that never finishes its request head (slowloris) does not hold a
 * connection for ever: it gets the 408 Error and the connection is closed.
 * How long that takes is a limit (docs/limits.md), not asserted here,
 * except that a connection that sends nothing at all goes well before a
 * head that has begun.
 */
import { connect, type Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVER_LIMITS } from '../../src/adapters/node-server.js';
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

describe('a connection that sends nothing', () => {
  it('gets the 408 Error and is closed long before the 10 s a begun head has', { timeout: 60_000 }, async () => {
    const start = performance.now();
    const socket = connect(Number(new URL(sb.origin).port), '127.0.0.1');
    let received = '';
    socket.on('data', (chunk: Buffer) => void (received += chunk.toString()));
    await new Promise((resolve) => socket.once('close', resolve));
    expect(performance.now() - start).toBeLessThan(SERVER_LIMITS.headersTimeoutMs - 2_000);
    expect(received).toMatch(/^HTTP\/1\.1 408 /);
    expect(JSON.parse(received.split('\r\n\r\n')[1] ?? '')).toMatchObject({ code: 'request_timeout', status: 408 });
  });
});

describe('a peer that never reads', () => {
  it('does not keep its connection after the 408: the server closes its side without waiting for the peer', { timeout: 60_000 }, async () => {
    const serverSide = new Promise<Socket>((resolve) => sb.server.once('connection', resolve));
    const socket = connect(Number(new URL(sb.origin).port), '127.0.0.1');
    socket.write('GET /v1/pets HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    // Never reads: the 408 stays unread in the socket's buffers, and this side never closes.
    socket.pause();
    const accepted = await serverSide;
    await new Promise((resolve) => accepted.once('close', resolve));
    // The response was sent whole before the server let go: reading now gets it, then the end.
    let received = '';
    socket.on('data', (chunk: Buffer) => void (received += chunk.toString()));
    socket.resume();
    await new Promise((resolve) => socket.once('close', resolve));
    expect(received).toMatch(/^HTTP\/1\.1 408 /);
    expect(JSON.parse(received.split('\r\n\r\n')[1] ?? '')).toMatchObject({ code: 'request_timeout', status: 408 });
  });
});
