import { tooLarge } from '../kernel/json.js';
import type { BodyReader } from '../kernel/types.js';
import { ApiError } from '../kernel/errors.js';
import { echo } from '../kernel/echo.js';

/** A decoder of one Content-Encoding: the encoded bytes in, the decoded bytes out. */
export type BodyDecoder = (encoded: ReadableStream<Uint8Array>) => ReadableStream<Uint8Array>;
export type BodyDecoders = Readonly<Record<string, BodyDecoder>>;

/** The encodings every runtime with the Compression Streams API can undo. */
const STANDARD: BodyDecoders = {
  gzip: (s) => s.pipeThrough(new DecompressionStream('gzip') as unknown as ReadableWritablePair<Uint8Array, Uint8Array>),
  deflate: (s) => s.pipeThrough(new DecompressionStream('deflate') as unknown as ReadableWritablePair<Uint8Array, Uint8Array>),
};

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
        // Not awaited: a cancel of one branch of a teed stream (MSW clones each request) settles only once the other
        // branch is cancelled too, which may never come; the refusal must not wait for it.
        reader.cancel().catch(() => undefined);
        throw tooLarge(limit);
      }
      chunks.push(chunk.value);
    }
  } catch (error) {
    if (error instanceof ApiError) throw error;
    if (decoding) throw ApiError.of('invalid_request', `Request body does not decode as its Content-Encoding says (${reasonOf(error)}).`);
    throw ApiError.of('invalid_request', 'The request body was aborted.');
  }
  if (chunks.length === 1) return chunks[0] as Uint8Array;
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) bytes.set(chunk, (at += chunk.length) - chunk.length);
  return bytes;
}

/** A stream of `first`, then the rest of `reader`'s: a body whose first piece was read to see whether it had any. */
function resumed(first: Uint8Array | undefined, reader: ReadableStreamDefaultReader<Uint8Array>): ReadableStream<Uint8Array> {
  let head = first;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (head) {
        controller.enqueue(head);
        head = undefined;
        return;
      }
      const { value, done } = await reader.read();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    cancel: (reason) => reader.cancel(reason),
  });
}

/** A fetch Request's body, read only when the engine asks, within the limit it names. */
class FetchBody implements BodyReader {
  constructor(
    readonly stream: ReadableStream<Uint8Array>,
    readonly headers: Headers,
    readonly decoders: BodyDecoders,
  ) {}

  /** Its Content-Encoding undone, at most `limit` bytes once decoded (413 past it, as a declared length over it is before a byte is read). */
  read(limit: number): Promise<Uint8Array> {
    const encoding = (this.headers.get('content-encoding') ?? 'identity').toLowerCase();
    if (encoding === 'identity') return this.raw(limit);
    const decoder = this.decoders[encoding] ?? STANDARD[encoding];
    if (!decoder) return Promise.reject(ApiError.of('unsupported_media_type', `Unsupported content encoding ${echo(encoding)}.`));
    try {
      return collect(decoder(this.stream), limit, true);
    } catch (error) {
      return Promise.reject(error as Error);
    }
  }

  raw(limit: number): Promise<Uint8Array> {
    if (Number(this.headers.get('content-length') ?? 0) > limit) return Promise.reject(tooLarge(limit));
    return collect(this.stream, limit, false);
  }
}

/**
 * A fetch Request's body as the engine reads it, or undefined when none was
 * sent: an empty body without a Content-Encoding is none, as
 * `Content-Length: 0` is on the server (its first piece is read to know;
 * an empty chunked one is a body, as there). `decoders` add
 * Content-Encodings beyond gzip and deflate (`br` on Node).
 */
export async function fetchBody(request: Request, decoders: BodyDecoders = {}): Promise<BodyReader | undefined> {
  if (request.body === null) return undefined;
  const { headers } = request;
  const encoded = (headers.get('content-encoding') ?? 'identity').toLowerCase() !== 'identity';
  if (encoded || headers.has('transfer-encoding')) return new FetchBody(request.body, headers, decoders);
  const reader = request.body.getReader();
  let first: Awaited<ReturnType<typeof reader.read>>;
  try {
    do first = await reader.read();
    while (!first.done && first.value.length === 0);
  } catch {
    // A body that broke before its first byte: the engine's read reports it, if the route reads one.
    return new FetchBody(resumed(undefined, reader), headers, decoders);
  }
  return first.done ? undefined : new FetchBody(resumed(first.value, reader), headers, decoders);
}
