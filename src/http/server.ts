import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { RequestListener } from 'node:http';

/** Limits on the connection level (README, "Limits"). */
export const SERVER_LIMITS = {
  /** Largest request head (request line and headers), bytes. */
  maxHeaderSize: 16 * 1024,
  /** Time to receive the whole request head. */
  headersTimeoutMs: 10_000,
  /** Time to receive the whole request. */
  requestTimeoutMs: 30_000,
  /** Idle keep-alive connections are closed after this. */
  keepAliveTimeoutMs: 5_000,
} as const;

const STATUS_TEXT: Record<number, string> = { 400: 'Bad Request', 408: 'Request Timeout', 431: 'Request Header Fields Too Large' };

/**
 * Node's HTTP parser rejects some requests before Express sees them (a head
 * too large, a malformed request line). Answer those with the Error body too,
 * not the bare status line Node would send.
 */
function answerClientError(error: Error & { code?: string }, socket: Socket): void {
  if (!socket.writable || (socket as Socket & { _httpMessage?: unknown })._httpMessage) {
    socket.destroy();
    return;
  }
  const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
  const code = status === 431 ? 'request_header_too_large' : status === 408 ? 'request_timeout' : 'invalid_request';
  const message =
    status === 431 ? `Request headers are larger than ${SERVER_LIMITS.maxHeaderSize} bytes.`
    : status === 408 ? 'The request was not received in time.'
    : 'Malformed HTTP request.';
  const body = JSON.stringify({ code, message, status });
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_TEXT[status]}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/** An HTTP server with the sandbox's limits, listening; resolves with its base URL. */
export async function listen(handler: RequestListener, port: number, host: string): Promise<{ server: Server; origin: string }> {
  const server = createServer({ maxHeaderSize: SERVER_LIMITS.maxHeaderSize, requestTimeout: SERVER_LIMITS.requestTimeoutMs, headersTimeout: SERVER_LIMITS.headersTimeoutMs }, handler);
  server.keepAliveTimeout = SERVER_LIMITS.keepAliveTimeoutMs;
  server.on('clientError', answerClientError);
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

/** Stops accepting connections, lets requests in flight finish, closes idle ones. */
export function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeIdleConnections();
    setTimeout(() => server.closeAllConnections(), 2_000).unref();
  });
}
