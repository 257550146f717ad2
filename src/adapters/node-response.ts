import type { OutgoingHttpHeader, ServerResponse } from 'node:http';
import { isEngineStream, type EngineResponse, type EngineStream } from '../kernel/types.js';

/** Resolves once `res` can take more (drained) or will take nothing more (closed). */
function drained(res: ServerResponse): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

/**
 * A streamed body written as it comes, waiting for the client to take each
 * piece: memory stays at one piece whatever the body's size. Stops pulling
 * once the client is gone (the stream's `return` then releases what it
 * holds: a live tail's listener, an export's snapshot).
 */
async function pipeStream(res: ServerResponse, body: EngineStream): Promise<void> {
  for await (const piece of body) {
    if (res.destroyed) break;
    if (!res.write(piece)) await drained(res);
    if (res.destroyed) break;
  }
  if (!res.destroyed) res.end();
}

/**
 * Writes the engine's answer on a Node response: status, headers, then the
 * body as text, bytes or a stream. Returns once the whole body is handed to
 * Node (at once, but for a stream). A HEAD request's answer carries no body.
 */
export function writeEngineResponse(res: ServerResponse, response: EngineResponse, head = false): void | Promise<void> {
  // One writeHead with a flat [name, value, ...] list: on a response with no header set before (the /v1 fast path), Node
  // writes the list as it comes, where a setHeader per header fills a map first and then copies it (both in the GET profile).
  // Headers set before (Express's, on an error) are replaced by the same names here, as setHeader would.
  const raw: OutgoingHttpHeader[] = [];
  for (const name in response.headers) raw.push(name, response.headers[name] as OutgoingHttpHeader);
  res.writeHead(response.status, raw);
  const { body } = response;
  if (head || body === undefined) return void res.end();
  if (isEngineStream(body)) return pipeStream(res, body);
  res.end(body);
}
