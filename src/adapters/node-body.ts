import type { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { tooLarge } from '../kernel/json.js';
import { ApiError } from '../kernel/errors.js';
import { echo } from '../kernel/echo.js';
import type { BodyReader } from '../kernel/types.js';

/**
 * Whether a request carries a body: a chunked one has no Content-Length, so
 * both headers count. An empty `Content-Length: 0` body is no body.
 */
export const hasBody = (req: IncomingMessage): boolean => req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;

/** Decoders of the Content-Encodings a JSON body may have (as Express's body parser accepts them). */
const DECODERS: Record<string, () => NodeJS.ReadWriteStream> = {
  gzip: createGunzip,
  deflate: createInflate,
  br: createBrotliDecompress,
};

/** The request's body stream, decoded as its Content-Encoding says; 415 for an encoding it cannot undo. */
function decoded(req: IncomingMessage, limit: number): Readable {
  const encoding = (req.headers['content-encoding'] ?? 'identity').toLowerCase();
  if (encoding === 'identity') {
    // A declared length over the limit is refused before a byte is read.
    if (Number(req.headers['content-length'] ?? 0) > limit) throw tooLarge(limit);
    return req;
  }
  const decoder = DECODERS[encoding];
  if (!decoder) throw ApiError.of('unsupported_media_type', `Unsupported content encoding ${echo(encoding)}.`);
  return req.pipe(decoder()) as unknown as Readable;
}

/** Every byte of `stream`, at most `limit` of them once decoded. */
function collect(req: IncomingMessage, stream: Readable, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    // A request its parser broke on (answered by the server itself, then dumped) never closes: its connection does.
    const socket = req.socket;
    const stop = (error: ApiError) => {
      stream.off('data', onData);
      socket.off('close', aborted);
      if (stream !== req) {
        req.unpipe(stream as unknown as NodeJS.WritableStream);
        stream.destroy();
      }
      req.pause();
      reject(error);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) stop(tooLarge(limit));
      else chunks.push(chunk);
    };
    stream.on('data', onData);
    let ended = false;
    stream.once('end', () => {
      ended = true;
      socket.off('close', aborted);
      resolve(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size));
    });
    // An error of the decoder is a body that does not decode: zlib's codes are Z_*, Brotli's ERR__ERROR_* (the request's own never reach it).
    stream.once('error', (error: Error) =>
      stop(
        stream !== req ?
          ApiError.of('invalid_request', `Request body does not decode as its Content-Encoding says (${error.message}).`)
        : ApiError.of('invalid_request', 'The request body was aborted.'),
      ),
    );
    // Cut short; or destroyed before its end was read (its client left while the request waited), so that its bytes,
    // though whole, will never come. A request read to its end and closed (its bytes still in a decoder) is neither.
    const aborted = () => {
      if (!ended && (!req.complete || (req.destroyed && !req.readableEnded))) stop(ApiError.of('invalid_request', 'The request body was aborted.'));
    };
    socket.once('close', aborted);
    // Read to its end before this read began (dropped unread): none of its bytes will come.
    if (req.readableEnded) stop(ApiError.of('invalid_request', 'The request body was aborted.'));
    // A request read after a wait may have closed already (or its connection): no `close` would come to settle this.
    else if (req.closed || socket.destroyed) aborted();
    else req.once('close', aborted);
  });
}

/**
 * A request's body bytes with its Content-Encoding undone, for the engine
 * to check and parse: refuses an encoding it cannot undo (415) and a body
 * over `limit` bytes once decoded (413), while the bytes stream in. A body
 * refused before its end leaves the rest unread (the answer then closes
 * the connection).
 */
async function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  return collect(req, decoded(req, limit), limit);
}

/**
 * A request's body as sent, its Content-Encoding left as it is. Only the size is refused (413 over `limit` bytes), for
 * a proxy that passes the bytes on and judges them separately.
 */
async function readRawBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  if (Number(req.headers['content-length'] ?? 0) > limit) throw tooLarge(limit);
  return collect(req, req, limit);
}

/** A Node request's body, read (and its Content-Encoding undone) only when the engine asks, within the limit it names. */
export class NodeBody implements BodyReader {
  constructor(readonly req: IncomingMessage) {}
  read(limit: number): Promise<Uint8Array> {
    return readBody(this.req, limit);
  }
  raw(limit: number): Promise<Uint8Array> {
    return readRawBody(this.req, limit);
  }
}
