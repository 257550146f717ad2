/**
 * A request from a peer on another machine, simulated in process: a real
 * TCP connection on 127.0.0.1 whose accepted end reports `peer` as its
 * remote address, handed to an HTTP server as a connection of its own. The
 * server and everything above it (Node's parser, the middleware, the
 * engine) run as they do for a remote client; only the address is told.
 */
import { connect, createServer, type Socket } from 'node:net';
import type { Server } from 'node:http';
import { parseResponse, type RawResponse } from './raw-http.js';

/** An address of TEST-NET-3 (RFC 5737): never this machine's. */
export const REMOTE_PEER = '203.0.113.7';

export interface PeerRequest {
  method?: string;
  /** The request target, e.g. `/v1/pets`. */
  target: string;
  /** The `Host` header; default `localhost`. An empty string sends none. */
  host?: string;
  headers?: Record<string, string>;
  body?: string;
}

/** An accepted socket and its client end, both on loopback. */
async function socketPair(): Promise<{ accepted: Socket; client: Socket }> {
  const listener = createServer();
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  const { port } = listener.address() as { port: number };
  const acceptedP = new Promise<Socket>((resolve) => listener.once('connection', resolve));
  const client = connect(port, '127.0.0.1');
  const accepted = await acceptedP;
  await new Promise<void>((resolve) => (client.connecting ? client.once('connect', () => resolve()) : resolve()));
  listener.close();
  return { accepted, client };
}

/** Sends `request` to `server` as if from `peer`, and reads its answer (the connection is closed after it). */
export async function requestFromPeer(server: Server, request: PeerRequest, peer = REMOTE_PEER): Promise<RawResponse> {
  const { accepted, client } = await socketPair();
  Object.defineProperty(accepted, 'remoteAddress', { value: peer, configurable: true });
  server.emit('connection', accepted);
  const body = request.body ?? '';
  const head = [
    `${request.method ?? 'GET'} ${request.target} HTTP/1.1`,
    ...(request.host === '' ? [] : [`Host: ${request.host ?? 'localhost'}`]),
    'Connection: close',
    ...Object.entries(request.headers ?? {}).map(([name, value]) => `${name}: ${value}`),
    ...(body === '' && request.method !== 'POST' && request.method !== 'PUT' ? [] : [`Content-Length: ${Buffer.byteLength(body)}`]),
  ];
  client.write(`${head.join('\r\n')}\r\n\r\n${body}`);
  const chunks: Buffer[] = [];
  return new Promise<RawResponse>((resolve, reject) => {
    const timer = setTimeout(() => (client.destroy(), reject(new Error(`no answer to ${request.target} within 10 s`))), 10_000);
    const done = () => {
      clearTimeout(timer);
      try {
        const parsed = parseResponse(Buffer.concat(chunks), request.method === 'HEAD');
        if (parsed) resolve(parsed);
        else reject(new Error(`an incomplete answer to ${request.target}`));
      } catch (error) {
        reject(error as Error);
      }
    };
    client.on('data', (chunk: Buffer) => chunks.push(chunk));
    client.on('end', done);
    client.on('error', (error) => (clearTimeout(timer), reject(error)));
  });
}
