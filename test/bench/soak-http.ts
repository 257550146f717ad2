/**
 * The soak's HTTP client: node:http with one keep-alive agent per phase,
 * destroyed at the phase's end so that the sandbox's descriptors can be
 * counted without the client's connections in them; a deadline on every
 * request; journal streams opened and dropped at a chosen moment.
 */
import { Agent, request, type OutgoingHttpHeaders } from 'node:http';
import { performance } from 'node:perf_hooks';

/** Past this a request counts as failed (and its socket is destroyed). */
const DEADLINE_MS = 10_000;

export interface Answer {
  status: number;
  contentType: string;
  text: string;
  /** From sending to the last byte of the answer. */
  ms: number;
}

export interface SoakHttp {
  /** One request; rejects when no answer comes (connection error, deadline). */
  send(method: string, path: string, headers: OutgoingHttpHeaders, body?: string): Promise<Answer>;
  /** Opens `path` (an event stream) on a connection of its own and destroys it after `afterMs`, whatever arrived by then. */
  dropAfter(path: string, headers: OutgoingHttpHeaders, afterMs: number): Promise<void>;
  /** Closes every connection of this client. */
  close(): void;
}

/** A client of the sandbox at `origin`, with at most `sockets` kept-alive connections. */
export function createSoakHttp(origin: string, sockets: number): SoakHttp {
  const agent = new Agent({ keepAlive: true, maxSockets: sockets });
  const streams = new Set<ReturnType<typeof request>>();
  return {
    send: (method, path, headers, body) =>
      new Promise((resolve, reject) => {
        const t0 = performance.now();
        const all = body === undefined ? headers : { ...headers, 'content-length': String(Buffer.byteLength(body)) };
        const req = request(`${origin}${path}`, { method, headers: all, agent, timeout: DEADLINE_MS }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('error', reject);
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              contentType: String(res.headers['content-type'] ?? ''),
              text: Buffer.concat(chunks).toString('utf8'),
              ms: performance.now() - t0,
            }),
          );
        });
        req.on('timeout', () => req.destroy(new Error(`no answer within ${DEADLINE_MS} ms`)));
        req.on('error', reject);
        req.end(body);
      }),
    dropAfter: (path, headers, afterMs) =>
      new Promise((resolve) => {
        // A connection of its own (agent: false): the stream's socket is destroyed, never reused.
        const req = request(`${origin}${path}`, { headers, agent: false }, (res) => res.resume());
        streams.add(req);
        req.on('error', () => undefined);
        req.on('close', () => (streams.delete(req), resolve()));
        setTimeout(() => req.destroy(), afterMs);
        req.end();
      }),
    close: () => {
      agent.destroy();
      for (const req of streams) req.destroy();
    },
  };
}
