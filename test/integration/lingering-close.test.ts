/**
 * The lingering close on a bare node:http server whose handler refuses
 * every request at once, before reading its body (src/adapters/lingering-close.ts):
 * the answer says `Connection: close`, the rest of the body is read after it
 * and the connection closed once it has arrived, or at the first bound: the
 * bytes, the time, the idle time. The first test fails if Node's server stops
 * ending a last response's connection through `socket.destroySoon()`, which
 * the module replaces on the socket; a request read whole, or without a
 * body, is left alone.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { closeAfterAnswer, type LingerBounds } from '../../src/adapters/lingering-close.js';
import { problemOf } from '../support/body-senders.js';
import { parseResponse, type RawResponse } from '../support/raw-http.js';
import { trickle } from '../support/trickle.js';

const ANSWER = JSON.stringify({ code: 'payload_too_large', message: 'Request body is larger than the limit.', status: 413 });
/** How much later than a bound a connection may close on a loaded machine. */
const SLACK_MS = 10_000;

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  server = undefined;
});

/** A server that refuses every request with a 413 before reading its body; the one after `/read-first` once it has read it. */
async function refusing(bounds: LingerBounds): Promise<{ port: number; sockets: Socket[] }> {
  const sockets: Socket[] = [];
  const refuse = (req: IncomingMessage, res: ServerResponse) => {
    closeAfterAnswer(req, res, bounds);
    res.writeHead(413, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(ANSWER) });
    res.end(ANSWER);
  };
  server = createServer((req, res) => {
    if (req.url !== '/read-first') return refuse(req, res);
    req.resume();
    req.once('end', () => refuse(req, res));
  });
  server.on('connection', (socket: Socket) => void sockets.push(socket));
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as AddressInfo).port, sockets };
}

const head = (length: number, path = '/') => `POST ${path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`;

/** Sends `first`, reads the answer, then hands the socket over (its answer, and errors kept). */
async function answered(port: number, first: string): Promise<{ socket: Socket; answer: RawResponse; errors: string[] }> {
  const socket = connect(port, '127.0.0.1');
  const errors: string[] = [];
  socket.on('error', (error) => void errors.push(error.message));
  let received = Buffer.alloc(0);
  const answer = await new Promise<RawResponse>((resolve, reject) => {
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      const response = parseResponse(received);
      if (response) resolve(response);
    });
    socket.once('close', () => reject(new Error(`closed before the answer: ${errors.join()}`)));
    socket.write(first);
  });
  return { socket, answer, errors };
}

const closed = (socket: Socket) => new Promise<void>((resolve) => (socket.closed ? resolve() : socket.once('close', () => resolve())));

describe('a request refused before its body is read', () => {
  it('is answered with Connection: close; the rest of its body is read after the answer, then the connection closed', async () => {
    const { port, sockets } = await refusing({ bytes: 1024 * 1024, timeMs: 60_000, idleMs: 60_000 });
    const length = 200_000;
    const { socket, answer, errors } = await answered(port, `${head(length)}{"name":`);
    expect(answer.status).toBe(413);
    expect(answer.headers.connection).toBe('close');
    // The rest comes after the answer was read: a connection closed at the answer would reset here.
    socket.write(' '.repeat(length - 8));
    await new Promise<void>((resolve) => socket.once('end', resolve));
    await closed(sockets[0] as Socket);
    expect(sockets[0]?.bytesRead).toBe(Buffer.byteLength(head(length)) + length);
    expect(errors).toEqual([]);
    socket.destroy();
  });

  it.each([
    ['read whole first', `${head(2, '/read-first')}{}`],
    ['without a body, answered before Node has marked it complete', 'GET / HTTP/1.1\r\nHost: localhost\r\n\r\n'],
  ])('%s, keeps its connection: nothing lingers', async (_label, request) => {
    const { port, sockets } = await refusing({ bytes: 0, timeMs: 0, idleMs: 0 });
    const { socket, answer } = await answered(port, request);
    expect(answer.status).toBe(413);
    expect(answer.headers.connection).toBe('keep-alive');
    expect(Object.hasOwn(sockets[0] as Socket, 'destroySoon')).toBe(false);
    socket.destroy();
  });
});

describe('the rest of a refused body is read within bounds', () => {
  it('closes once more than the byte bound has come after the answer', async () => {
    const bound = 256 * 1024;
    const { port, sockets } = await refusing({ bytes: bound, timeMs: 60_000, idleMs: 60_000 });
    const length = 16 * 1024 * 1024;
    const { socket } = await answered(port, `${head(length)}{`);
    socket.write(Buffer.alloc(length - 1, ' '));
    const server = sockets[0] as Socket;
    await closed(server);
    const after = server.bytesRead - Buffer.byteLength(head(length)) - 1;
    expect(after).toBeGreaterThan(bound);
    expect(after).toBeLessThan(length / 2);
    socket.destroy();
  });

  it('closes a client that falls silent after the idle bound', { timeout: 30_000 }, async () => {
    const { port } = await refusing({ bytes: 1024 * 1024, timeMs: 25_000, idleMs: 300 });
    const run = await trickle(connect(port, '127.0.0.1'), { boundMs: 25_000, stopAtAnswer: true });
    expect(problemOf(run.read, 413, 'payload_too_large')).toBeUndefined();
    // Well before the time bound, which would close it too: the idle bound did.
    expect(run.closedAfterMs).toBeLessThan(300 + SLACK_MS);
  });

  it('closes a client that goes on trickling at the time bound', { timeout: 30_000 }, async () => {
    const { port } = await refusing({ bytes: 1024 * 1024 * 1024, timeMs: 1_000, idleMs: 10_000 });
    const run = await trickle(connect(port, '127.0.0.1'), { boundMs: 1_000 + SLACK_MS });
    expect(problemOf(run.read, 413, 'payload_too_large')).toBeUndefined();
    expect(run.closedAfterMs).toBeLessThan(1_000 + SLACK_MS);
  });
});
