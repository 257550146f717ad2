/**
 * The one error exit never throws: a failure that comes after the answer
 * was written (a body read that fails once the server answered its broken
 * request itself) is dropped, not turned into a second answer, which would
 * throw inside a promise and stop the process.
 */
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/kernel/errors.js';
import { writeError } from '../../../src/adapters/node-error.js';

/** Runs `handle` in a real server's request handler and returns what the client got. */
async function serveOnce(handle: (req: IncomingMessage, res: ServerResponse) => void): Promise<{ status: number; body: string }> {
  const server = createServer(handle).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  try {
    const { port } = server.address() as AddressInfo;
    return await new Promise((resolve, reject) => {
      request({ port, host: '127.0.0.1', path: '/v1/pets' }, (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      })
        .on('error', reject)
        .end();
    });
  } finally {
    server.close();
  }
}

describe('the error exit', () => {
  it('answers an error with the Error body', async () => {
    const got = await serveOnce((req, res) => writeError(req, res, ApiError.of('not_found', 'No pet.')));
    expect(got).toEqual({ status: 404, body: '{"code":"not_found","message":"No pet.","status":404}' });
  });

  it('drops a failure that comes after the answer was written, without throwing', async () => {
    let thrown: unknown;
    const got = await serveOnce((req, res) => {
      res.end('{"first":true}');
      try {
        writeError(req, res, new Error('late'));
      } catch (error) {
        thrown = error;
      }
    });
    expect(thrown).toBeUndefined();
    expect(got.body).toBe('{"first":true}');
  });
});
