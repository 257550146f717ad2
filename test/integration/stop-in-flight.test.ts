/**
 * A stopping sandbox refuses new requests and waits for those under way:
 * a request that arrives once the stop began is answered 503 with
 * `Retry-After` and the connection closed; a write under way when the stop
 * began is answered and kept, and the stores close only after it. On the
 * run's backend, over real HTTP.
 */
import { connect, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { STOPPING_RETRY_AFTER_S } from '../../src/server/in-flight.js';
import { KEY, onMemory, startTestSandbox } from '../support/harness.js';
import { parseResponse, type RawResponse } from '../support/raw-http.js';

/** A connection with a request's head begun, so that the stop finds it busy rather than idle. */
function begun(origin: string): Promise<{ socket: Socket; answer: Promise<RawResponse | undefined> }> {
  return new Promise((resolve) => {
    const socket = connect({ port: Number(new URL(origin).port), host: '127.0.0.1' }, () => {
      socket.write('GET /v1/pets?limit=1 HTTP/1.1\r\nHost: 127.0.0.1\r\n');
      let received = Buffer.alloc(0);
      const answer = new Promise<RawResponse | undefined>((done) => {
        socket.on('data', (chunk: Buffer) => {
          received = Buffer.concat([received, chunk]);
          const response = parseResponse(received);
          if (response) done(response);
        });
        socket.on('close', () => done(parseResponse(received)));
      });
      socket.on('error', () => undefined);
      resolve({ socket, answer });
    });
  });
}

describe('a sandbox that stops', () => {
  it('answers a request that arrives once the stop began with 503, Retry-After and Connection: close', { timeout: 30_000 }, async () => {
    const sb = await startTestSandbox();
    const { socket, answer } = await begun(sb.origin);
    const stopped = sb.stop();
    socket.write(`Authorization: Bearer ${KEY}\r\n\r\n`);
    const res = await answer;
    expect(res?.status).toBe(503);
    expect(res?.headers['retry-after']).toBe(String(STOPPING_RETRY_AFTER_S));
    expect(res?.headers.connection).toBe('close');
    expect(JSON.parse(res?.body ?? '')).toEqual({ code: 'service_unavailable', message: expect.stringContaining('stopping') as unknown, status: 503 });
    socket.destroy();
    await stopped;
  });

  it('finishes a write under way before the stores close: it is answered and kept', { timeout: 30_000 }, async () => {
    const sb = await startTestSandbox();
    const dir = sb.dir;
    // The create waits in a fault's delay, well within the grace the stop gives requests under way, then writes.
    await fetch(`${sb.origin}/__sandbox/faults`, {
      method: 'POST',
      headers: { authorization: `Bearer ${sb.config.adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ operationId: 'createPet', latencyMs: 500, count: 1 }),
    });
    const created = sb.call('/pets', { method: 'POST', json: { name: 'Last', categoryId: 9 } });
    await new Promise((resolve) => setTimeout(resolve, 100));
    await sb.stop({ keepData: true });
    const res = await created;
    expect(res.status).toBe(201);
    // The memory store keeps nothing past its process: there, being answered is all a stop can promise.
    if (onMemory) return;
    const again = await startTestSandbox([], dir);
    try {
      expect((await again.call(`/pets/${res.body.id}`)).body).toEqual(res.body);
    } finally {
      await again.stop();
    }
  });
});
