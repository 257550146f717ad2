import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { hasBody } from './node-body.js';
import { SERVER_LIMITS } from './node-server.js';

/** When a lingering close stops reading and closes: whichever bound comes first. */
export interface LingerBounds {
  /** Bytes read and dropped after the answer. */
  bytes: number;
  /** Time since the answer was written. */
  timeMs: number;
  /** Time without a byte from the client. */
  idleMs: number;
}

const BOUNDS: LingerBounds = { bytes: SERVER_LIMITS.lingerBytes, timeMs: SERVER_LIMITS.lingerTimeMs, idleMs: SERVER_LIMITS.lingerIdleMs };

/** A socket as Node's HTTP server ends it after its last response (lib/_http_server.js, `resOnFinish`). */
type Ending = Socket & { destroySoon?: () => void };

/**
 * Closes the connection after the answer about to be written, when its
 * request has not arrived whole (refused before its body was read to the
 * end). The answer says `Connection: close`; the rest of the body is read
 * and dropped, and once the answer is written the connection is closed
 * when the body has arrived, when the client ends its side, or at the first
 * bound of `bounds`. Closed at once, the connection would be reset by the
 * kernel as the rest of the body came in, and a client still sending would
 * lose the answer before it read it (RFC 9112, 9.6; nginx's
 * `lingering_close`). Call it before the answer's head is written; a
 * complete request, or one without a body (the usual cases), costs a
 * property read or two.
 */
export function closeAfterAnswer(req: IncomingMessage, res: ServerResponse, bounds: LingerBounds = BOUNDS): void {
  // A request without a body is not complete yet while it is answered at once, but nothing of it is left to come.
  // HTTP/2 resets a stream without touching its connection.
  if (req.complete || !hasBody(req) || req.httpVersionMajor > 1) return;
  // Node then says `Connection: close` (after the answer's own headers, as on every path) and ends the connection.
  res.shouldKeepAlive = false;
  const socket: Ending = req.socket;
  // Read here rather than left to Node, which would dump the request (`req._dump()`) once answered: its parser
  // then stops passing the body on, and what arrives could not be counted.
  let lastByte = Infinity;
  req.on('data', () => {
    if (socket.bytesRead > lastByte) socket.destroy();
  });
  req.resume();
  // Node internals: its server ends the connection after a last response with `socket.destroySoon()` (an undocumented
  // method of net.Socket), which destroys the socket as soon as the answer is flushed, unread body and all, and no
  // public API defers that. So this socket's own `destroySoon` lingers instead.
  // test/integration/lingering-close.test.ts fails if Node stops calling it.
  socket.destroySoon = () => {
    lastByte = socket.bytesRead + bounds.bytes;
    linger(req, socket, bounds);
  };
}

/**
 * Closes the connection once the body has arrived, or the client ends its
 * side, or after `bounds`. Our side is not ended before: a Node socket that
 * sees the peer's end while it is still writing fails its next write with
 * EPIPE (half-open connections are off by default), which a client may
 * take for the request's failure.
 */
function linger(req: IncomingMessage, socket: Socket, bounds: LingerBounds): void {
  // As Node's own destroySoon: our side ended, the socket destroyed once that is flushed.
  const end = () => void socket.end(() => socket.destroy());
  if (req.complete) return end();
  req.once('end', end);
  const close = () => socket.destroy();
  // The client has sent all it will. Closed before Node's parser hears of the end of a body cut short: it would
  // answer that as a malformed request (`clientError`), after the answer already given.
  socket.prependOnceListener('end', close);
  const timer = setTimeout(close, bounds.timeMs).unref();
  socket.once('close', () => clearTimeout(timer));
  socket.setTimeout(bounds.idleMs, close);
}
