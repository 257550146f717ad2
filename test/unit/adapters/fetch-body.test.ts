/**
 * A body that does not decode is refused in zlib's words on every runtime:
 * the server's answer, byte for byte (the cross-adapter differential found
 * Chromium's DecompressionStream putting them in a sentence of its own).
 */
import { describe, expect, it } from 'vitest';
import { readBodyBytes, type BodyDecoder } from '../../../src/adapters/fetch-body.js';

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

describe('a body that does not decode', () => {
  it.each([
    ['Chromium’s DecompressionStream', new TypeError('The compressed data was not valid: incorrect header check.')],
    ['a web stream over Node’s zlib', new TypeError('', { cause: new Error('incorrect header check') })],
    ['a decoder that says it plainly', new Error('incorrect header check')],
  ])('is refused in zlib’s words through %s', async (_, error) => {
    await expect(readBodyBytes(gzipRequest(), 1024, { gzip: failing(error) })).rejects.toMatchObject({
      status: 400,
      message: 'Request body does not decode as its Content-Encoding says (incorrect header check).',
    });
  });

  it('by Node’s own DecompressionStream too', async () => {
    await expect(readBodyBytes(gzipRequest(), 1024)).rejects.toMatchObject({
      message: 'Request body does not decode as its Content-Encoding says (incorrect header check).',
    });
  });
});
