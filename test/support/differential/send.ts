/**
 * A case of the corpus sent as given: over HTTP with node:http (headers and
 * body bytes exactly as they are; a slow body written in pieces with pauses,
 * chunked), or as a fetch RequestInit for the ways in process (a slow body
 * as a stream that yields its pieces with pauses).
 */
import { request as httpRequest, type ClientRequest } from 'node:http';
import { piecesOf, slowStream, type Slow } from './bodies.js';
import { bodyBytes, type RawAnswer, type WireRequest } from './wire.js';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Writes `body` in pieces, `slow.pauseMs` apart, then ends the request; stops once `answered` (a server may refuse the body midway). */
async function writeSlowly(req: ClientRequest, body: Uint8Array, slow: Slow, answered: () => boolean): Promise<void> {
  for (const [i, piece] of piecesOf(body, slow.pieces).entries()) {
    if (i > 0) await pause(slow.pauseMs);
    if (answered() || req.destroyed) return;
    req.write(piece);
  }
  req.end();
}

/**
 * Sends `wire` to `origin` + `prefix` + its target with node:http, on a
 * connection of its own. A server may answer before the body is all sent (a
 * declared length over the limit) and close: its answer counts, and the
 * failed rest of the writing does not.
 */
export function sendOverHttp(origin: string, wire: WireRequest, prefix = ''): Promise<RawAnswer> {
  const { hostname, port } = new URL(origin);
  return new Promise<RawAnswer>((resolve, reject) => {
    let answered = false;
    const options = { hostname, port, method: wire.method, path: prefix + wire.target, headers: wire.headers, agent: false };
    const req = httpRequest(options, (res) => {
      answered = true;
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => {
        const headers: [string, string][] = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2) headers.push([res.rawHeaders[i] as string, res.rawHeaders[i + 1] as string]);
        resolve({ status: res.statusCode ?? 0, headers, body: Buffer.concat(chunks).toString('base64') });
      });
    });
    req.on('error', (error) => {
      if (!answered) reject(error);
    });
    const body = bodyBytes(wire);
    if (body && wire.slow) void writeSlowly(req, body, wire.slow, () => answered);
    else req.end(body);
  });
}

/** The case as a fetch RequestInit: its body as bytes, or, sent slowly, as a stream (`duplex: 'half'`, which fetch needs for one). */
export function initOf(wire: WireRequest): RequestInit {
  const body = bodyBytes(wire);
  const init: RequestInit = { method: wire.method, headers: wire.headers };
  if (!body) return init;
  if (!wire.slow) return { ...init, body };
  return { ...init, body: slowStream(body, wire.slow), duplex: 'half' } as RequestInit;
}
