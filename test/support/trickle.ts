/**
 * A slow sender: a chunked POST /v1/pets written a small piece at a time
 * with pauses, past the body limit, its answer read as it comes. It goes on
 * sending after the answer (a client that never looks at it), or with
 * `stopAtAnswer` falls silent, its side left open, until the server ends
 * the connection or `boundMs` has passed since the answer.
 */
import type { Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Read } from './body-senders.js';
import { KEY } from './harness.js';
import { parseResponse } from './raw-http.js';

export interface TrickleOptions {
  boundMs: number;
  stopAtAnswer?: boolean;
  pieceBytes?: number;
  pauseMs?: number;
}

export interface TrickleRun {
  /** The answer read, or why none was. */
  read: Read;
  /** Bytes written in all, head included. */
  sent: number;
  /** Bytes written, head included, when the answer had been read whole. */
  sentBeforeAnswer: number;
  /** From the answer read to the server's end of the connection (Infinity: not within `boundMs` of the answer). */
  closedAfterMs: number;
}

const HEAD = `POST /v1/pets HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${KEY}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`;

/** Trickles a body on `socket`, just made, as `options` say. */
export async function trickle(socket: Socket, options: TrickleOptions): Promise<TrickleRun> {
  const { boundMs, stopAtAnswer = false, pieceBytes = 4096, pauseMs = 25 } = options;
  const piece = `${pieceBytes.toString(16)}\r\n${' '.repeat(pieceBytes)}\r\n`;
  let received = Buffer.alloc(0);
  let read: Read | undefined;
  let answeredAt = 0;
  let closedAt: number | undefined;
  let error = '';
  let sent = 0;
  let sentBeforeAnswer = 0;
  socket.on('data', (chunk: Buffer) => {
    received = Buffer.concat([received, chunk]);
    const response = read ? undefined : parseResponse(received);
    if (!response) return;
    read = { status: response.status, text: response.body };
    answeredAt = performance.now();
    sentBeforeAnswer = sent;
  });
  socket.on('error', (e) => void (error ||= e.message));
  // The server's end of the connection: its FIN, or its reset.
  const closed = () => void (closedAt ??= performance.now());
  socket.once('end', closed);
  socket.once('close', closed);
  await new Promise((resolve) => socket.once('connect', resolve));
  const start = performance.now();
  const write = (text: string) => {
    socket.write(text);
    sent += text.length;
  };
  write(HEAD);
  while (closedAt === undefined && performance.now() - (read ? answeredAt : start) < boundMs) {
    if (!read || !stopAtAnswer) write(piece);
    await sleep(pauseMs);
  }
  socket.destroy();
  const closedAfterMs = closedAt === undefined || !read ? Infinity : closedAt - answeredAt;
  return { read: read ?? { error: error || 'no answer' }, sent, sentBeforeAnswer, closedAfterMs };
}
