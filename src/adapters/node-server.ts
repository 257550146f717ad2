import { createServer, STATUS_CODES, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { limitClients, type TurnAway } from './node-client-limits.js';
import { ApiError, type ErrorCode } from '../kernel/errors.js';
import type { RefusedRequest } from '../ops/request-log.js';

/** Limits on the connection level (docs/limits.md). */
export const SERVER_LIMITS = {
  /** Largest request head (request line and headers), bytes. */
  maxHeaderSize: 16 * 1024,
  /** Time for a new connection to send its first byte; an idle one is closed after it (408), not after the head's 10 s. */
  firstRequestTimeoutMs: 2_000,
  /** Time to receive the whole request head. */
  headersTimeoutMs: 10_000,
  /** Time to receive the whole request. */
  requestTimeoutMs: 30_000,
  /** Idle keep-alive connections are closed after this. */
  keepAliveTimeoutMs: 5_000,
  /** How often the two timeouts above are checked (Node's default, 30 s, let a 10 s limit last up to 40 s). */
  timeoutCheckIntervalMs: 1_000,
  /** A connection answered with an error and closed is destroyed after this even if its peer never reads. */
  errorCloseGraceMs: 1_000,
  /**
   * A connection answered before its request arrived whole (adapters/lingering-close.ts) reads and drops the rest of the
   * body before it closes, so that a client still sending reads its answer instead of a reset; it closes at the first of
   * these bounds (docs/limits.md). Bytes read after the answer: twice the largest body any limit lets through (64 MiB).
   */
  lingerBytes: 128 * 1024 * 1024,
  /** Time after the answer: about what 128 MiB takes at 100 Mbit/s; a trickling client holds its socket no longer. */
  lingerTimeMs: 10_000,
  /** Time without a byte from the client, as long as a new connection has for its first one. */
  lingerIdleMs: 2_000,
  /** Once the listener closes, requests in flight get this long; then every connection still open is closed (live journal tails too). */
  closeGraceMs: 2_000,
} as const;

/** A whole response written straight to the socket, for requests Express never sees; closes the connection. */
function rawErrorResponse(error: ApiError): string {
  const body = JSON.stringify(error.toBody());
  return `HTTP/1.1 ${error.status} ${STATUS_CODES[error.status]}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`;
}

/** What a failure of Node's HTTP parser means for the client, as a catalogue code and a message. */
const CLIENT_ERRORS: Record<string, { code: ErrorCode; message: string }> = {
  HPE_HEADER_OVERFLOW: { code: 'request_header_too_large', message: `Request headers are larger than ${SERVER_LIMITS.maxHeaderSize} bytes.` },
  ERR_HTTP_REQUEST_TIMEOUT: { code: 'request_timeout', message: 'The request was not received in time.' },
};
const MALFORMED = { code: 'invalid_request', message: 'Malformed HTTP request.' } as const;

/**
 * Node's HTTP parser rejects some requests before Express sees them (a head
 * too large, a malformed request line, a broken chunked body, a head that
 * did not arrive in time). Answer those with the Error body too, not the
 * bare status line (or silence) Node would send, and tell `onRefused` of
 * each answered so (the handlers report the requests they saw themselves).
 */
const answerClientError = (onRefused: (refused: RefusedRequest) => void) => (error: Error & { code?: string }, socket: Socket) => {
  const { code, message } = CLIENT_ERRORS[error.code ?? ''] ?? MALFORMED;
  const answer = ApiError.of(code, message);
  const inFlight = (socket as Socket & { _httpMessage?: ServerResponse })._httpMessage;
  if (inFlight && !inFlight.writableFinished && socket.writable) {
    // A request is being answered on this connection. If it arrived whole, the bytes that broke
    // the parser came after it (a lying Content-Length, pipelined garbage): let its answer go
    // out, then close. If its own body broke the parser, it is the request answered with the error.
    inFlight.once('close', () => socket.destroy());
    if (inFlight.req.complete || inFlight.headersSent) {
      inFlight.shouldKeepAlive = false;
      return;
    }
    const body = JSON.stringify(answer.toBody());
    inFlight.writeHead(answer.status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body), Connection: 'close' });
    inFlight.end(body);
    return;
  }
  if (!socket.writable || inFlight) {
    socket.destroy();
    return;
  }
  answerAndClose(socket, rawErrorResponse(answer));
  onRefused({ status: answer.status, code });
};

/**
 * Sends a last response and frees the connection. `end()` alone would keep the
 * socket (and its descriptor) until the peer closes its side, which a peer
 * that never reads never does: destroy once the response is flushed, or after
 * a short grace time if it cannot be.
 */
function answerAndClose(socket: Duplex, response: string): void {
  const timer = setTimeout(() => socket.destroy(), SERVER_LIMITS.errorCloseGraceMs).unref();
  socket.once('close', () => clearTimeout(timer));
  socket.end(response, () => socket.destroy());
}

/** CONNECT asks for a tunnel, which the sandbox never opens: answer it, do not just drop the connection. */
function refuseConnect(_req: IncomingMessage, socket: Duplex): void {
  answerAndClose(socket, rawErrorResponse(ApiError.of('method_not_allowed', 'CONNECT is not supported: the sandbox is not a proxy.')));
}

/** What the listener allows: connections in all (`--max-connections`) and per client address (`--max-connections-per-client`). */
export interface ConnectionCaps {
  maxConnections?: number;
  perClient?: number;
}

/**
 * Turns a connection away as the client limits ask: one over its client's
 * cap gets the 503 Error at once and is closed (what it sends meanwhile is
 * read and dropped), an idle one gets the 408 Node sends when a head is late.
 */
const turnAway = (server: Server, onRefused: (refused: RefusedRequest) => void) => (socket: Socket, why: TurnAway) => {
  if (why === 'idle') {
    server.emit('clientError', Object.assign(new Error('No request in time'), { code: 'ERR_HTTP_REQUEST_TIMEOUT' }), socket);
    return;
  }
  const answer = ApiError.of('service_unavailable', 'Too many connections from this client address: close some, or reuse them (keep-alive).');
  socket.on('error', () => undefined);
  socket.resume();
  answerAndClose(socket, rawErrorResponse(answer));
  onRefused({ status: answer.status, code: answer.code });
};

/**
 * An HTTP server with the sandbox's limits, listening; resolves with its base
 * URL. Connections beyond `maxConnections` are closed as soon as they arrive,
 * and so are those beyond `perClient` from one client address.
 */
export async function listen(
  handler: RequestListener,
  port: number,
  host: string,
  caps: ConnectionCaps = {},
  onRefused: (refused: RefusedRequest) => void = () => undefined,
): Promise<{ server: Server; origin: string }> {
  const server = createServer(
    {
      maxHeaderSize: SERVER_LIMITS.maxHeaderSize,
      requestTimeout: SERVER_LIMITS.requestTimeoutMs,
      headersTimeout: SERVER_LIMITS.headersTimeoutMs,
      connectionsCheckingInterval: SERVER_LIMITS.timeoutCheckIntervalMs,
      // Node answers a missing Host with a bare 400 and no body; the sandbox answers every request with JSON instead.
      requireHostHeader: false,
    },
    handler,
  );
  const perClient = caps.perClient ?? Infinity;
  limitClients(server, { perClient, firstRequestMs: SERVER_LIMITS.firstRequestTimeoutMs }, turnAway(server, onRefused));
  server.keepAliveTimeout = SERVER_LIMITS.keepAliveTimeoutMs;
  if (caps.maxConnections !== undefined) server.maxConnections = caps.maxConnections;
  server.on('clientError', answerClientError(onRefused));
  server.on('connect', refuseConnect);
  // An `Expect` other than 100-continue would get Node's bare 417; ignoring it is allowed (RFC 9110, 10.1.1).
  server.on('checkExpectation', handler);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return { server, origin: `http://${shownHost}:${address.port}` };
}

/** Stops accepting connections, closes idle ones, gives requests in flight `closeGraceMs`, then closes the rest. */
export function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeIdleConnections();
    setTimeout(() => server.closeAllConnections(), SERVER_LIMITS.closeGraceMs).unref();
  });
}
