import { ApiError } from '../http/errors.js';

/** A decoder of one Content-Encoding: the encoded bytes in, the decoded bytes out. */
export type BodyDecoder = (encoded: ReadableStream<Uint8Array>) => ReadableStream<Uint8Array>;
export type BodyDecoders = Readonly<Record<string, BodyDecoder>>;

/** The encodings every runtime with the Compression Streams API can undo. */
const STANDARD: BodyDecoders = {
  gzip: (s) => s.pipeThrough(new DecompressionStream('gzip') as unknown as ReadableWritablePair<Uint8Array, Uint8Array>),
  deflate: (s) => s.pipeThrough(new DecompressionStream('deflate') as unknown as ReadableWritablePair<Uint8Array, Uint8Array>),
};

/** The 413 of a body over `limit` bytes, in the Node reader's words. */
export const tooLarge = (limit: number) => ApiError.of('payload_too_large', `Request body is larger than the limit of ${limit} bytes.`);

/** Chromium's DecompressionStream wraps zlib's words: `The compressed data was not valid: incorrect header check.` */
const CHROMIUM_WRAPPED = /^The compressed data was not valid: (.+?)\.?$/;

/**
 * What a decoder said, in zlib's words on every runtime, so that the answer
 * is the server's byte for byte: a web stream over Node's zlib carries them
 * as the cause of an empty TypeError, Chromium's DecompressionStream inside
 * a sentence of its own.
 */
const reasonOf = (error: unknown): string => {
  const { message, cause } = error as { message?: string; cause?: { message?: string } };
  const said = message || cause?.message || String(error);
  return CHROMIUM_WRAPPED.exec(said)?.[1] ?? said;
};

/** Every byte of `stream`, at most `limit` of them: past it the stream is cancelled and the request refused (413). */
async function collect(stream: ReadableStream<Uint8Array>, limit: number, decoding: boolean): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = stream.getReader();
  try {
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      size += chunk.value.length;
      if (size > limit) {
        await reader.cancel().catch(() => undefined);
        throw tooLarge(limit);
      }
      chunks.push(chunk.value);
    }
  } catch (error) {
    if (error instanceof ApiError) throw error;
    if (decoding) throw ApiError.of('invalid_request', `Request body does not decode as its Content-Encoding says (${reasonOf(error)}).`);
    throw ApiError.of('invalid_request', 'The request body was aborted.');
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) bytes.set(chunk, (at += chunk.length) - chunk.length);
  return bytes;
}

/**
 * A fetch Request's body as the engine takes it: its Content-Encoding undone,
 * at most `limit` bytes once decoded (413 past it, as a declared length over
 * it is before a byte is read), undefined when there is none.
 */
export async function readBodyBytes(request: Request, limit: number, extra: BodyDecoders = {}): Promise<Uint8Array | undefined> {
  if (request.body === null) return undefined;
  const encoding = (request.headers.get('content-encoding') ?? 'identity').toLowerCase();
  if (encoding === 'identity') {
    if (Number(request.headers.get('content-length') ?? 0) > limit) throw tooLarge(limit);
    const bytes = await collect(request.body, limit, false);
    // An empty body is no body, as `Content-Length: 0` is on the server; an empty chunked one is a body, as there.
    return bytes.length === 0 && !request.headers.has('transfer-encoding') ? undefined : bytes;
  }
  const decoder = extra[encoding] ?? STANDARD[encoding];
  if (!decoder) throw ApiError.of('unsupported_media_type', `Unsupported content encoding '${encoding}'.`);
  return collect(decoder(request.body), limit, true);
}
