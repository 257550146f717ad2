/**
 * A body that does not decode is refused in zlib's words on every runtime:
 * the server's answer, byte for byte (the cross-adapter differential found
 * Chromium's DecompressionStream putting them in a sentence of its own).
 */
import { describe, expect, it } from 'vitest';
import { fetchBody, type BodyDecoder, type BodyDecoders } from '../../../src/adapters/fetch-body.js';

/** A decoder that fails as a runtime's does, with `error`. */
const failing =
  (error: unknown): BodyDecoder =>
  () =>
    new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.error(error);
      },
    });

const gzipRequest = () => new Request('http://sandbox.test/v1/pets', { method: 'POST', headers: { 'content-encoding': 'gzip' }, body: 'not gzip' });

/** The body as the engine reads it, at most `limit` bytes. */
async function read(request: Request, limit: number, decoders?: BodyDecoders): Promise<Uint8Array> {
  const body = await fetchBody(request, decoders);
  if (!body) throw new Error('no body');
  return body.read(limit);
}

describe('a body that does not decode', () => {
  it.each([
    ['Chromium’s DecompressionStream', new TypeError('The compressed data was not valid: incorrect header check.')],
    ['a web stream over Node’s zlib', new TypeError('', { cause: new Error('incorrect header check') })],
    ['a decoder that says it plainly', new Error('incorrect header check')],
  ])('is refused in zlib’s words through %s', async (_, error) => {
    await expect(read(gzipRequest(), 1024, { gzip: failing(error) })).rejects.toMatchObject({
      status: 400,
      message: 'Request body does not decode as its Content-Encoding says (incorrect header check).',
    });
  });

  it('by Node’s own DecompressionStream too', async () => {
    await expect(read(gzipRequest(), 1024)).rejects.toMatchObject({
      message: 'Request body does not decode as its Content-Encoding says (incorrect header check).',
    });
  });
});

describe('whether a body was sent', () => {
  const post = (body: string) => new Request('http://sandbox.test/v1/pets', { method: 'POST', body });

  it('an empty body is none, as Content-Length: 0 is on the server', async () => {
    expect(await fetchBody(post(''))).toBeUndefined();
    expect(await fetchBody(new Request('http://sandbox.test/v1/pets'))).toBeUndefined();
  });

  it('a body is read whole once asked, past the piece read to know it was there', async () => {
    const text = 'x'.repeat(200_000);
    const body = await fetchBody(post(text));
    expect(new TextDecoder().decode(await body?.read(1_000_000))).toBe(text);
  });

  it('one over the limit is refused 413 as it is read', async () => {
    const body = await fetchBody(post('x'.repeat(5000)));
    await expect(body?.read(4096)).rejects.toMatchObject({ status: 413, message: 'Request body is larger than the limit of 4096 bytes.' });
  });
});
